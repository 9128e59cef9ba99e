import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { wrappedUnder } from "../../../http/schemas";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS } from "../../../models/CustomAttributeDefinition";
import { compileLinear } from "../../../lib/linearRegex";

const REGEX_PATTERN_MAX = 1000;

/** An enum sent as Chatwoot's integer code (or its digits) or as its name; stored as the code. */
const codeOrName = (names: readonly string[]) =>
  z
    .union([z.number().int(), z.string().max(MAX_LENGTH.string)])
    .transform((value) => (typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : names.indexOf(value)))
    .refine((code) => code >= 0 && code < names.length, { message: "is not included in the list" });

const fields = {
  attribute_display_name: z.string().trim().max(255),
  attribute_description: z.string().max(MAX_LENGTH.text).nullable(),
  attribute_key: z.string().trim().max(255),
  attribute_display_type: codeOrName(ATTRIBUTE_DISPLAY_TYPES),
  attribute_model: codeOrName(ATTRIBUTE_MODELS),
  /** Nulls are dropped (`[null]`, a form's empty row, stores as `[]`, as Chatwoot's cast does). */
  attribute_values: z.array(z.string().max(MAX_LENGTH.string).nullable()).transform((values) => values.filter((value) => value !== null)),
  regex_pattern: z
    .string()
    .max(REGEX_PATTERN_MAX)
    .superRefine((pattern, ctx) => {
      // zod runs refinements after a failed max(): a pattern past it is refused there, and compiling
      // a huge one would exhaust the RE2 WebAssembly heap (16 MB) instead.
      if (pattern.length > REGEX_PATTERN_MAX) return;
      const compiled = compileLinear(pattern);
      if (compiled.ok) return;
      ctx.addIssue({
        code: "custom",
        message:
          compiled.reason === "invalid"
            ? "is invalid"
            : `is not supported: patterns run on a linear-time engine without lookaround or backreferences (${compiled.detail})`,
      });
    })
    .nullable(),
  regex_cue: z.string().max(MAX_LENGTH.string).nullable(),
};

export const definitionBody = z.preprocess(wrappedUnder("custom_attribute_definition"), z.object(fields).partial()).openapi("CustomAttributeDefinitionRequest");

export const definitionListQuery = z.object({ attribute_model: codeOrName(ATTRIBUTE_MODELS).optional() });

export const definitionResponse = z
  .object({
    id: z.number(),
    attribute_display_name: z.string(),
    attribute_display_type: z.enum(ATTRIBUTE_DISPLAY_TYPES),
    attribute_description: z.string().nullable(),
    attribute_key: z.string(),
    regex_pattern: z.string().nullable(),
    regex_cue: z.string().nullable(),
    attribute_values: z.array(z.string()),
    attribute_model: z.enum(ATTRIBUTE_MODELS),
    default_value: z.number().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("CustomAttributeDefinition");
