/**
 * An offer of slots in a conversation, as the offers route and the automation action offer_slots
 * both take it (docs/scheduling-bots.md).
 */
import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";
import { blankAsAbsent, id, idList } from "../http/schemas";
import { parseTimeInput } from "../scheduling/wallTime";

/**
 * An ISO 8601 date-time kept as the request gave it: with an offset it is an instant; without one
 * it is wall-clock time in the zone of what it is about (the resource's, or the account's).
 */
export const timeInput = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .transform((value, ctx) => {
      const parsed = parseTimeInput(value);
      if (parsed === undefined) {
        ctx.addIssue({ code: "custom", message: "is not a valid date-time" });
        return z.NEVER;
      }
      return parsed;
    });

export const offerFields = z.object({
  service_id: id(),
  /** CSV, a JSON array or `resource_ids[]=`; every active resource offering the service when absent. */
  resource_ids: blankAsAbsent(idList()),
  /** Without an offset: wall-clock time in the account's scheduling timezone. Default: now. */
  from: blankAsAbsent(timeInput()),
  /** Default: seven days after `from`; at most 31 days after it. */
  to: blankAsAbsent(timeInput()),
  count: blankAsAbsent(z.coerce.number().int().min(1).max(10)).transform((count) => count ?? 5),
  /** How long the contact may choose; a week at most. */
  expires_in_minutes: blankAsAbsent(z.coerce.number().int().min(1).max(10_080)).transform((minutes) => minutes ?? 60),
});
export type OfferFields = z.output<typeof offerFields>;

/** The automation action's params: `[{service_id, resource_ids?, from?, to?, count?, expires_in_minutes?}]`. */
export const offerSlotsParams = (params: unknown) => offerFields.safeParse(Array.isArray(params) ? params[0] : params);

/** What is wrong with an offer_slots action's params, in words; undefined when they are fine. */
export function offerSlotsParamsProblem(params: unknown): string | undefined {
  const parsed = offerSlotsParams(params);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((issue) => `${issue.path.join(".") || "params"} ${issue.message}`).join(", ");
}
