import { z } from "zod";
import { jsonObject } from "../../../../http/schemas";
import { CALENDAR_VIEWS, MAX_DURATION_MINUTES, MIN_DURATION_MINUTES } from "../../../../scheduling/constants";
import { booleanParam, csvIds, one, timeInput } from "../common";
import { breakRuleResponse, holidayResponse, overrideResponse, resourceResponse, timeOffResponse, workRuleResponse } from "../responses";

export const calendarQuery = z
  .object({
    view: z.enum(CALENDAR_VIEWS).default("week"),
    /** Without an offset: wall-clock time in the account's scheduling timezone. */
    from: timeInput(),
    to: timeInput(),
    resource_ids: csvIds.optional(),
    /** Only the resources that offer this service (an active price of it); slots last as long as it, unless duration_min says. */
    service_id: z.coerce.number().int().positive().optional(),
    include_slots: booleanParam.default(false),
    duration_min: z.coerce.number().int().min(MIN_DURATION_MINUTES).max(MAX_DURATION_MINUTES).optional(),
  })
  .openapi("SchedulingCalendarQuery");

const slotResponse = z.object({ resource_id: z.number(), starts_at: z.string(), ends_at: z.string(), status: z.literal("available") });

export const calendarResponse = one(
  z.object({
    view: z.enum(CALENDAR_VIEWS),
    range: z.object({ from: z.string(), to: z.string() }),
    resources: z.array(resourceResponse),
    work_rules: z.array(workRuleResponse),
    break_rules: z.array(breakRuleResponse),
    holidays: z.array(holidayResponse),
    workday_overrides: z.array(overrideResponse),
    time_offs: z.array(timeOffResponse),
    appointments: z.array(jsonObject()),
    payments: z.array(jsonObject()),
    expenses: z.array(jsonObject()),
    slots: z.array(slotResponse),
  }),
).openapi("SchedulingCalendar");
