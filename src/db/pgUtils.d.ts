/** pg's own conversion of a query's values (dates, arrays, JSON), as every query of it applies it. */
declare module "pg/lib/utils" {
  export function prepareValue(value: unknown): string | Buffer | null;
}
