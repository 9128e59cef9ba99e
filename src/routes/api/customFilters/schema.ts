import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { withinJsonLimits, wrappedUnder } from "../../../http/schemas";
import { FILTER_TYPES } from "../../../models/CustomFilter";
import { FILTER_OPERATORS } from "../../../services/filters/attributes";

// The saved query is the payload `conversations/filter` and `contacts/filter` take, with the
// operators of the shared filter vocabulary (src/services/filters/attributes.ts).

/** How a condition joins the next one; FilterService upcases it, so any case is accepted. */
const queryOperator = z
  .string()
  .max(MAX_LENGTH.string)
  .refine((operator) => ["and", "or"].includes(operator.toLowerCase()), { message: "is not included in the list" })
  .nullable();

// Loose: clients keep their own keys beside these (custom_attribute_type and the like).
const filterCondition = z
  .looseObject({
    attribute_key: z.string().max(MAX_LENGTH.string).min(1),
    filter_operator: z.enum(FILTER_OPERATORS),
    // Absent for the presence operators; otherwise the values to compare with.
    values: withinJsonLimits(z.array(z.unknown())).optional(),
    query_operator: queryOperator.optional(),
    custom_attribute_type: z.string().max(MAX_LENGTH.string).optional(),
  })
  .openapi("FilterCondition");

export const filterQuery = z.looseObject({ payload: z.array(filterCondition).min(1) }).openapi("FilterQuery");

/** A filter_type by name, or by Chatwoot's integer code. */
const filterType = z.union(
  [
    z.enum(FILTER_TYPES),
    z
      .number()
      .int()
      .min(0)
      .max(FILTER_TYPES.length - 1)
      .transform((code) => FILTER_TYPES[code]!),
  ],
  { error: "is not included in the list" },
);

const fields = {
  name: z.string().max(MAX_LENGTH.string),
  filter_type: filterType,
  // Loose: what it does not name is kept as sent, within the free-form limits.
  query: withinJsonLimits(filterQuery),
};

/** Chatwoot requires `custom_filter` (Rails wraps bare JSON bodies under it); name and query are not null columns. */
export const customFilterCreate = z
  .preprocess(wrappedUnder("custom_filter"), z.object({ ...fields, filter_type: filterType.default("conversation") }))
  .openapi("CustomFilterCreate");

export const customFilterUpdate = z.preprocess(wrappedUnder("custom_filter"), z.object(fields).partial()).openapi("CustomFilterUpdate");

export const customFilterListQuery = z.object({ filter_type: z.enum(FILTER_TYPES).default("conversation") });

export const customFilterResponse = z
  .object({
    id: z.number(),
    name: z.string(),
    filter_type: z.enum(FILTER_TYPES),
    query: filterQuery,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("CustomFilter");

export const customFiltersResponse = z.array(customFilterResponse).openapi("CustomFilters");
