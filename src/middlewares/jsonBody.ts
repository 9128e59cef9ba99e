import type { Next } from "koa";
import type { AppContext } from "../http/context";

/**
 * Writes a JSON body (a plain object or array a route answered) as one Buffer of its text. Koa would write
 * the text itself, and Node then copies a text that size twice on the JavaScript heap (once to
 * measure its length, once to put it behind the headers); a page of the conversation list is tens
 * of kilobytes, so those copies were a large share of its garbage (bench/HISTORY.md, stop 43).
 */
export async function jsonBody(ctx: AppContext, next: Next) {
  await next();
  const body: unknown = ctx.body;
  // Plain objects and arrays only: Buffers, streams and the like are Koa's to write.
  if (typeof body !== "object" || body === null || (!Array.isArray(body) && Object.getPrototypeOf(body) !== Object.prototype)) return;
  // Koa has set the JSON type already: a Buffer keeps it, and sets the length.
  ctx.body = Buffer.from(JSON.stringify(body));
}
