import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";

// The filter request of contacts/filter and conversations/filter.

/**
 * The body of `contacts/filter` and `conversations/filter`. Attributes, operators and query
 * operators are checked by the filter service, which answers in Chatwoot's words.
 */
export const filterRequest = z
  .looseObject({
    payload: z
      .array(
        z.looseObject({
          attribute_key: z.string().max(MAX_LENGTH.string).min(1),
          filter_operator: z.string().max(MAX_LENGTH.string),
          values: z.unknown().optional(),
          query_operator: z.string().max(MAX_LENGTH.string).nullable().optional(),
          custom_attribute_type: z.string().max(MAX_LENGTH.string).nullable().optional(),
        }),
      )
      .min(1),
    page: z.union([z.number(), z.string().max(20)]).optional(),
  })
  .openapi("FilterRequest");

/**
 * `?page=` (the SDK's) wins over a page in the body; kept as sent, since Chatwoot echoes it, and
 * read as pageNumber does (0 or junk is page 1).
 */
export const filterPageQuery = z.object({ page: z.string().max(20).optional() });
