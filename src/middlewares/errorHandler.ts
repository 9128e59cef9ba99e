import type { Next } from "koa";
import { z } from "zod";
import { ApiError, BadRequest, PayloadTooLarge, Throttled, ValidationError } from "../errors";
import type { AppContext } from "../http/context";
import { logger } from "../lib/logger";
import { toValidationError } from "../lib/validation";

interface PgError {
  code: string;
  constraint?: string;
  detail?: string;
  column?: string;
}

function isPgError(err: unknown): err is PgError {
  return typeof err === "object" && err !== null && typeof (err as PgError).code === "string" && /^[0-9A-Z]{5}$/.test((err as PgError).code);
}

/**
 * The column a constraint violation names in its detail, e.g. `Key (account_id, url)=(1, x)`: the last
 * one; an expression index names it as `lower(email::text)`.
 */
function columnOf(err: PgError): string {
  const key = err.detail?.match(/Key \((.+?)\)=/)?.[1];
  const columns = key?.split(",").map((c) => c.trim().replace(/^lower\(|\)$|::\w+/g, ""));
  return columns?.at(-1) ?? err.column ?? "base";
}

/**
 * Database constraints are the last line of defence (races past a model's own check); their
 * violations still answer 422 in Chatwoot's shape rather than 500.
 */
function fromPgError(err: PgError): ApiError | undefined {
  const attribute = columnOf(err);
  switch (err.code) {
    case "23505":
      return ValidationError.of(attribute, "has already been taken");
    case "23503":
      return ValidationError.of(attribute, "must exist");
    case "22001":
      return ValidationError.of(attribute, "is too long");
    case "22021":
    case "22P05":
      // A NUL character, which PostgreSQL text and jsonb cannot hold.
      return ValidationError.of(attribute, "contains a character that is not allowed");
    case "22P02":
    case "22003":
    case "22007":
    case "22008":
    case "23514":
      return ValidationError.of(attribute, "is invalid");
    default:
      return undefined;
  }
}

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof z.ZodError) return toValidationError(err);
  // Objection wraps driver errors (UniqueViolationError, ...) and keeps pg's own in nativeError.
  const driverError = (err as { nativeError?: unknown }).nativeError ?? err;
  if (isPgError(driverError)) return fromPgError(driverError);
  const status = (err as { status?: number }).status;
  if (status === 413) return PayloadTooLarge();
  if (status === 400 || status === 415) {
    return BadRequest(`Malformed request body: ${(err as Error).message}`);
  }
  return undefined;
}

export async function errorHandler(ctx: AppContext, next: Next) {
  try {
    await next();
  } catch (err) {
    if (err instanceof Throttled) {
      ctx.status = err.status;
      ctx.set("Retry-After", String(err.retryAfter));
      ctx.type = "text/plain";
      ctx.body = "Retry later\n";
      return;
    }
    const apiError = toApiError(err);
    if (apiError) {
      ctx.status = apiError.status;
      ctx.body = apiError.body;
      return;
    }
    (ctx.log ?? logger).error({ err }, `${ctx.method} ${ctx.path} failed`);
    ctx.status = 500;
    ctx.body = { error: "Internal server error" };
  }
}
