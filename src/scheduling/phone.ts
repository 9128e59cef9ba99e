/**
 * Phone numbers as the fork normalises them (reference §8), Kazakhstan-first: an E.164 number is
 * kept, 10 digits get +7, and 11+ digits starting with 7 or 8 become +7 and the next 10 digits.
 * Undefined when none applies.
 */
export function normalizePhone(value: string): string | undefined {
  const compact = value.trim().replace(/[\s\-().]/g, "");
  if (/^\+[1-9]\d{7,14}$/.test(compact)) return compact;
  const digits = value.replace(/\D/g, "");
  if (digits.length === 10) return `+7${digits}`;
  if (digits.length >= 11 && (digits[0] === "7" || digits[0] === "8")) return `+7${digits.slice(1, 11)}`;
  return undefined;
}
