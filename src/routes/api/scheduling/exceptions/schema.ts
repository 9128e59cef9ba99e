import { z } from "zod";
import { id, jsonObject } from "../../../../http/schemas";
import { body, calendarDate, endMinute, instant, requiredText, startMinute, text, timeInput } from "../common";

// ---- holidays

const holidayFields = z
  .object({
    date: calendarDate(),
    title: requiredText(),
    recurring_yearly: z.boolean(),
    working_day_override: z.boolean(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const holidayCreate = body("holiday", holidayFields.required({ date: true, title: true }), "SchedulingHolidayCreate");
export const holidayUpdate = body("holiday", holidayFields, "SchedulingHolidayUpdate");

// ---- workday overrides

const overrideFields = z
  .object({
    resource_id: id(),
    date: calendarDate(),
    start_minute: startMinute(),
    end_minute: endMinute(),
    break_start_minute: startMinute().nullable(),
    break_end_minute: endMinute().nullable(),
    break_title: text().nullable(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const overrideCreate = body(
  "workday_override",
  overrideFields.required({ resource_id: true, date: true, start_minute: true, end_minute: true }),
  "SchedulingWorkdayOverrideCreate",
);
export const overrideUpdate = body("workday_override", overrideFields, "SchedulingWorkdayOverrideUpdate");
export type OverrideInput = z.output<typeof overrideFields>;

export const overridesQuery = z.object({ resource_id: id().optional() });

// ---- time off

const timeOffFields = z
  .object({
    resource_id: id().nullable(),
    kind: requiredText(),
    /** Without an offset: wall-clock time in the resource's zone (the account's for everyone's time off). */
    starts_at: timeInput(),
    ends_at: timeInput(),
    title: text().nullable(),
    notes: z.string().max(10_000).nullable(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const timeOffCreate = body("time_off", timeOffFields.required({ kind: true, starts_at: true, ends_at: true }), "SchedulingTimeOffCreate");
export const timeOffUpdate = body("time_off", timeOffFields, "SchedulingTimeOffUpdate");
export type TimeOffInput = z.output<typeof timeOffFields>;
/** As the fork filters: exactly that resource (account-wide rows are NULL), and entries starting in [from, to). */
export const timeOffsQuery = z.object({ resource_id: id().optional(), from: instant().optional(), to: instant().optional() });
