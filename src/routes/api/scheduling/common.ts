import { z, type ZodType } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { id, page, wrappedUnder } from "../../../http/schemas";
import { DEFAULT_TIMEZONE, MAX_DURATION_MINUTES, MIN_DURATION_MINUTES } from "../../../scheduling/constants";
import { canonicalTimeZone, parseInstant } from "../../../scheduling/timezone";

// Zod helpers that several scheduling features' schemas share; each feature's own schemas live in its folder.

// ---- field types

export const text = () => z.string().trim().max(255);
export const requiredText = () => z.string().trim().min(1).max(255);
export const money = () => z.number().int().min(0);
export const durationMin = () => z.number().int().min(MIN_DURATION_MINUTES).max(MAX_DURATION_MINUTES);
export const startMinute = () => z.number().int().min(0).max(1439);
export const endMinute = () => z.number().int().min(1).max(1440);

export const booleanParam = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

export const timezone = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .transform((value, ctx) => {
      const zone = canonicalTimeZone(value.trim());
      if (!zone) ctx.addIssue({ code: "custom", message: "is not a valid IANA timezone" });
      return zone ?? value;
    });

/** A calendar date, "YYYY-MM-DD", that exists. */
export const calendarDate = () => z.string().max(MAX_LENGTH.string).refine(isCalendarDate, { message: "is not a valid date" });

/**
 * One check for shape and existence: zod runs every refinement even after a format check failed,
 * so the existence test must never assume the shape (an Invalid Date throws on toISOString).
 */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** An ISO 8601 date-time; without an offset it is wall-clock time in the default zone (Asia/Almaty). */
export const instant = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .transform((value, ctx) => {
      const ms = parseInstant(value, DEFAULT_TIMEZONE);
      if (ms === undefined) {
        ctx.addIssue({ code: "custom", message: "is not a valid date-time" });
        return z.NEVER;
      }
      return new Date(ms);
    });

export { timeInput } from "../../../schemas/schedulingOffer";

/** Fields of a body, optionally wrapped under `key` as Rails' ParamsWrapper clients send them. */
export const body = <S extends ZodType>(key: string, schema: S, name: string) => z.preprocess(wrappedUnder(key), schema).openapi(name);

/** A boolean in a body, as Rails casts one: true/false, "true"/"false", "1"/"0", 1/0. */
export const flag = () => z.union([z.boolean(), booleanParam, z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1)]);

/** Ids as CSV, or as a JSON array or `ids[]=` list, which read as the same CSV. */
export const csvIds = z
  .union([z.string().max(MAX_LENGTH.text), z.number(), z.array(z.union([z.number(), z.string().max(32)])).max(1000)])
  .transform((value, ctx) => {
    const parts = [value]
      .flat()
      .join(",")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const ids = parts.map(Number);
    if (ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
      ctx.addIssue({ code: "custom", message: "must be comma-separated ids" });
      return z.NEVER;
    }
    return [...new Set(ids)];
  });
/** A comma-separated list of names, each one of `values`. */
export const csvOf = <T extends string>(values: readonly T[]) =>
  z.string().transform((value, ctx) => {
    const parts = [
      ...new Set(
        value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = parts.filter((part) => !(values as readonly string[]).includes(part));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `is not included in the list (${unknown.join(", ")})` });
      return z.NEVER;
    }
    return parts as T[];
  });

export const pagination = {
  page: page(),
  per_page: z.coerce.number().int().min(1).max(500).default(100),
};
// ---- envelopes and parameters

export const one = (schema: ZodType) => z.object({ payload: schema });
export const many = (schema: ZodType) => z.object({ payload: z.array(schema), meta: z.object({ count: z.number() }) });

export const accountItemParams = z.object({ account_id: id(), id: id() });
export const pagedMany = (schema: ZodType) =>
  z.object({ payload: z.array(schema), meta: z.object({ count: z.number(), current_page: z.number(), per_page: z.number() }) });

/** Resource and service lists: the active rows, unless `include_inactive` asks for all. */
export const catalogQuery = z.object({ include_inactive: booleanParam.default(false) });
