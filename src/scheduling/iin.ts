/** Kazakhstan's individual identification number (ИИН): 12 digits, YYMMDD + century/gender + serial + check digit. */
import { invalidIin } from "./errors";

const FIRST_WEIGHTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const SECOND_WEIGHTS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2];

const weightedMod11 = (digits: number[], weights: number[]) => digits.reduce((sum, d, i) => sum + d * weights[i]!, 0) % 11;

/** Digits only; "IIN-like" means exactly 12 remain. */
export function iinDigits(value: string): string | undefined {
  const digits = value.replace(/\D/g, "");
  return digits.length === 12 ? digits : undefined;
}

export function iinChecksumValid(iin: string): boolean {
  if (!/^\d{12}$/.test(iin)) return false;
  const digits = [...iin].map(Number);
  const body = digits.slice(0, 11);
  let check = weightedMod11(body, FIRST_WEIGHTS);
  if (check === 10) check = weightedMod11(body, SECOND_WEIGHTS);
  // The fork (Scheduling::IinValidator) counts a second 10 as 0 rather than refusing the number.
  if (check === 10) check = 0;
  return check === digits[11];
}

/**
 * An identifier as the fork's validator treats it: IIN-like values come back as their 12 digits
 * and must pass the checksum (422 INVALID_IIN); anything else is a free identifier, kept as given.
 */
export function normalizeIdentifier(value: string): string {
  const iin = iinDigits(value);
  if (iin === undefined) return value.trim();
  if (!iinChecksumValid(iin)) throw invalidIin();
  return iin;
}

const CENTURY_GENDER: Record<string, { century: number; gender: "male" | "female" }> = {
  "1": { century: 1800, gender: "male" },
  "2": { century: 1800, gender: "female" },
  "3": { century: 1900, gender: "male" },
  "4": { century: 1900, gender: "female" },
  "5": { century: 2000, gender: "male" },
  "6": { century: 2000, gender: "female" },
};

/**
 * Birth date and gender encoded in a valid IIN (the fork's parseIinMetadata), or undefined when
 * the century digit is foreign (0) or not a code (7–9), or YYMMDD is not a real date.
 */
export function iinMetadata(iin: string): { birth_date: string; gender: "male" | "female" } | undefined {
  const code = CENTURY_GENDER[iin[6]!];
  if (!code) return undefined;
  const year = code.century + Number(iin.slice(0, 2));
  const month = Number(iin.slice(2, 4));
  const day = Number(iin.slice(4, 6));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return { birth_date: `${String(year).padStart(4, "0")}-${iin.slice(2, 4)}-${iin.slice(4, 6)}`, gender: code.gender };
}
