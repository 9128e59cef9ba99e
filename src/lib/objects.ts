/** The object without its undefined entries: an absent request field leaves the stored value alone. */
export function definedOnly<T extends object>(source: T): Partial<T> {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined)) as Partial<T>;
}
