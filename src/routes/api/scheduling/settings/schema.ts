import { z } from "zod";
import { ENDED_BOOKING_STATUSES, MAX_HOLD_MINUTES } from "../../../../scheduling/constants";
import { body, one, timezone } from "../common";

export const settingsResponse = one(
  z.object({
    reminder_offsets_minutes: z.array(z.number()),
    prepayment_hold_minutes: z.number(),
    minimum_notice_minutes: z.number(),
    timezone: z.string(),
    ended_booking_status: z.enum(ENDED_BOOKING_STATUSES).nullable(),
    ended_booking_grace_minutes: z.number(),
    confirmation_request_minutes_before: z.number().nullable(),
  }),
).openapi("SchedulingSettings");

const endedBookingStatus = z.preprocess((value) => (value === "" || value === "none" ? null : value), z.enum(ENDED_BOOKING_STATUSES).nullable());

export const settingsUpdate = body(
  "settings",
  z
    .object({
      /** Minutes before the start; at most 10, up to 30 days ahead. */
      reminder_offsets_minutes: z
        .array(z.number().int().min(1).max(43_200))
        .max(10)
        .transform((offsets) => [...new Set(offsets)].sort((a, b) => b - a)),
      prepayment_hold_minutes: z.number().int().min(1).max(MAX_HOLD_MINUTES),
      /** New bookings and moves start at least this far ahead; up to a year. */
      minimum_notice_minutes: z.number().int().min(0).max(525_600),
      /** Default zone of new resources and of the calendar's range. */
      timezone: timezone(),
      /** A booking still scheduled or confirmed this long after its end becomes this; null (or blank, "none"): nothing. */
      ended_booking_status: endedBookingStatus,
      /** Up to a week. */
      ended_booking_grace_minutes: z.number().int().min(0).max(10_080),
      /** Ask the linked conversation to confirm a scheduled booking this long before it starts (up to 30 days); null: never. */
      confirmation_request_minutes_before: z.number().int().min(1).max(43_200).nullable(),
    })
    .partial(),
  "SchedulingSettingsUpdate",
);
