import { z } from "zod";
import { blankAsAbsent, idList } from "../../../../http/schemas";
import { APPOINTMENT_STATUSES } from "../../../../scheduling/constants";
import { MEETINGS_GROUPS } from "../../../../scheduling/meetingsReport";
import { one, timeInput } from "../common";

export const meetingsQuery = z
  .object({
    /** Bookings that start from `from` up to (not including) `to`; without an offset, in the account's scheduling timezone. */
    from: timeInput(),
    /** At most 366 days after `from`. */
    to: timeInput(),
    /** CSV. */
    resource_ids: blankAsAbsent(idList()),
    service_ids: blankAsAbsent(idList()),
    group_by: blankAsAbsent(z.enum(MEETINGS_GROUPS)),
  })
  .openapi("SchedulingMeetingsQuery");

const figures = {
  counts: z.object({ ...Object.fromEntries(APPOINTMENT_STATUSES.map((status) => [status, z.number()])), total: z.number() }),
  booked_minutes: z.number(),
  charged: z.number(),
  paid: z.number(),
  refunded: z.number(),
};

const group = z
  .object({
    resource_id: z.number().optional(),
    resource_name: z.string().optional(),
    service_id: z.number().nullable().optional(),
    service_name: z.string().nullable().optional(),
    /** YYYY-MM-DD in the account's scheduling timezone. */
    date: z.string().optional(),
    ...figures,
  })
  .openapi("SchedulingMeetingsGroup");

export const meetingsResponse = one(
  z.object({
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
    group_by: z.enum(MEETINGS_GROUPS).nullable(),
    groups: z.array(group),
    totals: z.object(figures),
  }),
).openapi("SchedulingMeetingsReport");
