import type { Next } from "koa";
import { ValidationError } from "../errors";
import type { AppContext } from "../http/context";
import { MAX_BODY_DEPTH, nestsDeeperThan } from "../lib/jsonLimits";

/**
 * Refuses a parsed body nested deeper than any route needs, before a schema, model or logger walks
 * it recursively: JSON.parse copes with any depth, most code after it does not.
 */
export async function bodyDepthGuard(ctx: AppContext, next: Next) {
  const body = (ctx.request as { body?: unknown }).body;
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) throw ValidationError.of("base", `Request body is nested too deeply (maximum is ${MAX_BODY_DEPTH} levels)`);
  await next();
}
