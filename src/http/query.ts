import qs from "qs";

/**
 * A query string as Rack reads it, so that `ids[]=1&ids[]=2` reaches a schema as the list `ids`
 * (Koa's parser keeps the brackets in the key) and `a[b]=1` as `{ a: { b: "1" } }`.
 */
export function parseQuery(querystring: string): Record<string, unknown> {
  return qs.parse(querystring, { depth: 5, arrayLimit: 1000, parameterLimit: 1000 });
}
