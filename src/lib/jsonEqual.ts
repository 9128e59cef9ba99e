/**
 * Whether two JSON values are the same value. Change detection must not compare serialised text:
 * jsonb hands objects back with their keys reordered, so the same attributes written in another
 * order would otherwise count as a change (and fire webhooks and automation for nothing).
 * Dates compare by instant; key order never matters, array order does.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => jsonEqual(item, other[index]));
  }
  // An undefined entry is absent once serialised, so it does not make two objects differ.
  const entries = (value: object) => Object.entries(value).filter(([, item]) => item !== undefined);
  const left = entries(a);
  const right = new Map(entries(b));
  return left.length === right.size && left.every(([key, item]) => right.has(key) && jsonEqual(item, right.get(key)));
}
