import type { Next } from "koa";
import type { z } from "zod";
import { ApiError, fullMessage, ValidationError } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { invalid, notFound, SchedulingError, type ErrorDetails } from "../../../scheduling/errors";

/** zod issues as `{path: [messages]}`, with paths such as "rules.0.end_minute" so a client can point at the field. */
export function schedulingValidationError(error: z.ZodError): SchedulingError {
  const details: ErrorDetails = {};
  for (const issue of error.issues) {
    const attribute = issue.path.map(String).join(".") || "base";
    (details[attribute] ??= []).push(issue.message);
  }
  return invalid(details);
}

/**
 * A shared model's Chatwoot-shaped validation failure (contacts' uniqueness, say) in the scheduling
 * shape: `{attribute: [text]}`, the text without the humanised attribute Rails puts in front.
 */
function fromValidationError(error: ValidationError): SchedulingError {
  const details: ErrorDetails = {};
  for (const { attribute, message } of error.errors) (details[attribute] ??= []).push(message.slice(fullMessage(attribute, "").length));
  return invalid(details);
}

interface PgError {
  code: string;
  constraint?: string;
  detail?: string;
}

const isPgError = (err: unknown): err is PgError =>
  typeof err === "object" && err !== null && typeof (err as PgError).code === "string" && /^[0-9A-Z]{5}$/.test((err as PgError).code);

/** The last column a constraint violation names (`Key (resource_id, date)=(...)` → date). */
const columnOf = (err: PgError) =>
  err.detail
    ?.match(/Key \(([^)]+)\)/)?.[1]
    ?.split(",")
    .at(-1)
    ?.trim() ?? "base";

/** Database guarantees that a race slipped past the application's own checks, in the scheduling error shape. */
function fromPgError(err: PgError): SchedulingError | undefined {
  switch (err.code) {
    case "23505":
      if (err.constraint === "scheduling_appointments_idempotency_key_unique") {
        return new SchedulingError(409, "DUPLICATE_IDEMPOTENCY_KEY", "idempotency_key has already been used");
      }
      if (err.constraint === "scheduling_appointments_external_ref_unique") {
        return new SchedulingError(409, "DUPLICATE_EXTERNAL_REF", "external_ref has already been taken");
      }
      return invalid({ [columnOf(err)]: ["has already been taken"] });
    case "23P01":
      return new SchedulingError(409, "SLOT_CONFLICT", "The resource already has an appointment at this time");
    case "23503":
      return invalid({ [columnOf(err)]: ["must exist"] });
    case "23514":
    case "22P02":
    case "22003":
    case "22007":
    case "22008":
      return invalid({ base: ["is invalid"] });
    default:
      return undefined;
  }
}

/**
 * Everything behind the scheduling routes answers `{error, code, details?}`; permission and
 * authentication failures keep Chatwoot's shape, as the shared middleware gives them.
 */
export async function schedulingErrors(_ctx: AppContext, next: Next) {
  try {
    await next();
  } catch (err) {
    if (err instanceof SchedulingError) throw err;
    if (err instanceof ValidationError) throw fromValidationError(err);
    // A path id that does not parse: as unknown as a missing row.
    if (err instanceof ApiError && err.status === 404) throw notFound();
    // Objection wraps driver errors (UniqueViolationError ...) and keeps pg's in nativeError.
    const pgError = (err as { nativeError?: unknown }).nativeError ?? err;
    if (isPgError(pgError)) throw fromPgError(pgError) ?? err;
    throw err;
  }
}

/** The `scheduling` feature flag gates the whole area (403 FEATURE_DISABLED when off). */
export async function schedulingEnabled(ctx: AppContext, next: Next) {
  if (!ctx.state.account!.features?.includes("scheduling")) {
    throw new SchedulingError(403, "FEATURE_DISABLED", "Scheduling is not enabled for this account");
  }
  await next();
}

/** `scheduling_finance` also gates appointment payments, the payment and expense journals and payouts. */
export async function financeEnabled(ctx: AppContext, next: Next) {
  if (!ctx.state.account!.features?.includes("scheduling_finance")) {
    throw new SchedulingError(403, "FEATURE_DISABLED", "Scheduling finance is not enabled for this account");
  }
  await next();
}
