import { z } from "zod";
import { blankAsAbsent, idList, idOrAbsent } from "../../../../http/schemas";
import { MAX_DURATION_MINUTES, MIN_DURATION_MINUTES } from "../../../../scheduling/constants";
import { timeInput } from "../common";

export const availabilityQuery = z
  .object({
    /** Only the resources that offer it; slots last as long as it unless duration_min says. */
    service_id: idOrAbsent().optional(),
    duration_min: blankAsAbsent(z.coerce.number().int().min(MIN_DURATION_MINUTES).max(MAX_DURATION_MINUTES)),
    /** CSV, a JSON array or `resource_ids[]=`; every active resource (offering the service) when absent. */
    resource_ids: blankAsAbsent(idList()),
    /** Without an offset: wall-clock time in the account's scheduling timezone. Default: now. */
    from: blankAsAbsent(timeInput()),
    /** Default: seven days after `from`; at most 31 days after it. */
    to: blankAsAbsent(timeInput()),
    // Clamped rather than refused, as the scheduling contacts' limit is.
    limit: blankAsAbsent(z.coerce.number().int()).transform((limit) => Math.min(100, Math.max(1, limit ?? 20))),
  })
  .openapi("SchedulingAvailabilityQuery");

export type AvailabilityQuery = z.output<typeof availabilityQuery>;

const freeSlotResponse = z
  .object({
    resource_id: z.number(),
    resource_name: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    /** The resource's price of the service, in minor units; null when searching by duration_min alone. */
    price: z.number().nullable(),
  })
  .openapi("SchedulingFreeSlot");

export const availabilityResponse = z.object({ payload: z.array(freeSlotResponse) });
