import { z, type ZodType } from "zod";
import { freeFormProblem } from "../lib/jsonLimits";
import { MAX_LENGTH } from "./limits";
import { uploadedFile } from "./multipart";

const digits = (value: unknown) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value);

/**
 * A record id: a JSON number, or digits in a string (path, query and form values, and clients that
 * quote ids). Where an id is required, anything else names no record and is refused.
 */
export const id = () => z.preprocess(digits, z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

const isBlank = (value: unknown) => value === null || (typeof value === "string" && value.trim() === "");

/**
 * An id that may be left out: Rails casts `""` to nil, and no record has id 0, so `""`, `null`, `0`
 * and `"0"` all mean "none" (null). A missing key stays missing.
 */
export const optionalId = () => z.preprocess((value) => (isBlank(value) || digits(value) === 0 ? null : value), id().nullable());

/** An id where blank or 0 counts as left out (a list filter, contact create's inbox_id), as a form left at its default. */
export const idOrAbsent = () => optionalId().transform((value) => value ?? undefined);

/**
 * An id list as Rails reads one: a JSON array, `a,b` (CSV), `ids[]=a&ids[]=b` or a single id.
 * Blank entries are dropped, as Rails' `compact_blank` does.
 */
export const idList = () =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.split(",") : typeof value === "number" ? [value] : value),
    z
      .array(z.unknown())
      .transform((items) => items.filter((item) => !isBlank(item)))
      .pipe(z.array(id())),
  );

const TRUE_VALUES = new Set(["true", "t", "1", "on"]);
/** ActiveModel::Type::Boolean's FALSE_VALUES. */
const FALSE_VALUES = new Set(["false", "f", "0", "off"]);

/**
 * A boolean as Rails casts one: JSON booleans, 1/0, and "true"/"false"/"t"/"f"/"1"/"0"/"on"/"off".
 * Other strings are refused: Rails would read any of them as true, a guess that could flip a setting.
 */
export const railsBoolean = () =>
  z.preprocess((value) => {
    if (value === 1 || value === 0) return value === 1;
    if (typeof value !== "string") return value;
    const word = value.trim().toLowerCase();
    return TRUE_VALUES.has(word) ? true : FALSE_VALUES.has(word) ? false : value;
  }, z.boolean());

/** Kaminari's page: the number the value starts with (Ruby's to_i), page 1 when that is below 1 or absent. */
export function pageNumber(value: unknown): number {
  const number = Number.parseInt(String(value ?? ""), 10);
  return Number.isFinite(number) && number >= 1 ? number : 1;
}

export const page = () => z.preprocess(pageNumber, z.number().int().min(1).max(1_000_000_000));

/**
 * A list parameter of known values (sort, status...): an unknown value falls back to `fallback`,
 * as Chatwoot's finders ignore what they do not know. The document still lists the known values.
 */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess((value) => (values.includes(value as string) ? value : fallback), z.enum(values));

/** As oneOf, for a parameter with no default: an unknown value is as good as none. */
export const optionalOneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((value) => (values.includes(value as string) ? value : undefined), z.enum(values).optional());

export const idParams = z.object({ id: id() });
export const accountParams = z.object({ account_id: id() });
export const accountResourceParams = z.object({ account_id: id(), id: id() });

/** A free-form field (an object, or an array of anything) must stay within the depth and size every free-form JSON field shares. */
export const withinJsonLimits = <S extends ZodType>(schema: S) =>
  schema.superRefine((value, ctx) => {
    const problem = freeFormProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** An http(s) URL a client gives for the service to call or fetch (webhooks, bots, avatars). */
export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(MAX_LENGTH.url)
    .url({ protocol: /^https?$/ });

/** JSON object fields (custom_attributes, bot_config, ...), within the free-form limits. */
export const jsonObject = () => withinJsonLimits(z.record(z.string(), z.unknown()));

/**
 * An `avatar` field: an image file (multipart), or blank/null to remove the avatar, as Active
 * Storage detaches an attachment assigned a blank value.
 */
export const avatarUpload = () => z.preprocess((value) => (isBlank(value) ? null : value), uploadedFile().nullable());

/** An optional field a form may send blank: `""` counts as left out. */
export const blankAsAbsent = <S extends ZodType>(schema: S) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

/** A URL field a client may clear: `""` is stored as none (null), as Rails stores a blank. */
export const clearableHttpUrl = () => z.preprocess((value) => (isBlank(value) ? null : value), httpUrl().nullable());

/**
 * An avatar_url a client may leave blank: Chatwoot fetches it only when present, so `""` and null
 * change nothing (the key counts as absent).
 */
export const optionalHttpUrl = () => z.preprocess((value) => (isBlank(value) ? undefined : value), httpUrl().optional());

/** A client's temporary message id, echoed back: a string, or a number clients' counters send, taken as text. */
export const echoId = () =>
  z
    .union([z.string().max(255), z.number().transform(String)])
    .nullable()
    .optional();

export const pageQuery = z.object({ page: page() });

/**
 * Rails wraps JSON bodies under the resource name (ParamsWrapper), so Chatwoot clients send either
 * `{contact: {...}}` or the bare fields; this accepts both.
 */
export const wrappedUnder = (key: string) => (body: unknown) =>
  body && typeof body === "object" && key in body && typeof (body as Record<string, unknown>)[key] === "object" ? (body as Record<string, unknown>)[key] : body;

/** Devise.email_regexp, which Chatwoot uses for every email it stores. */
export const email = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .trim()
    .toLowerCase()
    .regex(/^[^@\s]+@[^@\s]+$/);

const SPECIAL_CHARACTERS = ` !@#$%^&*()_+-=[]{}|"/\\.,\`<>:;?~'`;

/** devise-secure_password's rule as Chatwoot configures it: 6..128 characters, one of each class. */
export const password = () =>
  z
    .string()
    .min(6)
    .max(128)
    .superRefine((value, ctx) => {
      const required: [RegExp | ((v: string) => boolean), string][] = [
        [/[A-Z]/, "must contain at least 1 uppercase character (A..Z)"],
        [/[a-z]/, "must contain at least 1 lowercase character (a..z)"],
        [/[0-9]/, "must contain at least 1 digit (0..9)"],
        [(v) => [...v].some((c) => SPECIAL_CHARACTERS.includes(c)), `must contain at least 1 special character (${SPECIAL_CHARACTERS})`],
      ];
      for (const [test, message] of required) {
        const ok = typeof test === "function" ? test(value) : test.test(value);
        if (!ok) ctx.addIssue({ code: "custom", message });
      }
    });

export const AVAILABILITIES = ["online", "offline", "busy"] as const;
/** Chatwoot's own API document names "online" `available`, so clients built from it send that. */
export const availability = () => z.preprocess((value) => (value === "available" ? "online" : value), z.enum(AVAILABILITIES));
