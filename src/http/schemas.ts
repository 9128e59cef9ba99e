import { z, type ZodType } from "zod";
import { freeFormProblem } from "../lib/jsonLimits";
import { MAX_LENGTH } from "./limits";

/** A numeric id in a path; anything else is an unknown resource. */
/**
 * A record id: a JSON number, or digits in a string (path, query and form values, and clients that
 * quote ids). Anything else is refused rather than coerced: `true`, `[5]` or `""` name no record.
 */
export const id = () =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  );

export const idParams = z.object({ id: id() });
export const accountParams = z.object({ account_id: id() });
export const accountResourceParams = z.object({ account_id: id(), id: id() });

/** A free-form field (an object, or an array of anything) must stay within the depth and size every free-form JSON field shares. */
export const withinJsonLimits = <S extends ZodType>(schema: S) =>
  schema.superRefine((value, ctx) => {
    const problem = freeFormProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** JSON object fields (custom_attributes, bot_config, ...), within the free-form limits. */
/** An http(s) URL a client gives for the service to call or fetch (webhooks, bots, avatars). */
export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(MAX_LENGTH.url)
    .url({ protocol: /^https?$/ });

export const jsonObject = () => withinJsonLimits(z.record(z.string(), z.unknown()));

/** A client's temporary message id, echoed back: a string, or a number clients' counters send, taken as text. */
export const echoId = () =>
  z
    .union([z.string().max(255), z.number().transform(String)])
    .nullable()
    .optional();

export const pageQuery = z.object({ page: z.coerce.number().int().min(1).default(1) });

/**
 * Rails wraps JSON bodies under the resource name (ParamsWrapper), so Chatwoot clients send either
 * `{contact: {...}}` or the bare fields; this accepts both.
 */
export const wrappedUnder = (key: string) => (body: unknown) =>
  body && typeof body === "object" && key in body && typeof (body as Record<string, unknown>)[key] === "object" ? (body as Record<string, unknown>)[key] : body;
