import { z } from "zod";
import { jsonObject } from "../../../http/schemas";

// Response shapes answered by their own feature (resources, exceptions) and embedded in the calendar.

export const resourceResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    user_id: z.number().nullable(),
    name: z.string(),
    specialty: z.string().nullable(),
    timezone: z.string(),
    slot_duration_min: z.number(),
    compensation_type: z.string(),
    compensation_value: z.number(),
    active: z.boolean(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingResource");

export const workRuleResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number(),
    weekday: z.number(),
    start_minute: z.number(),
    end_minute: z.number(),
    active: z.boolean(),
  })
  .openapi("SchedulingWorkRule");
export const breakRuleResponse = workRuleResponse.extend({ title: z.string().nullable() }).openapi("SchedulingBreakRule");

export const holidayResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    date: z.string(),
    title: z.string(),
    recurring_yearly: z.boolean(),
    working_day_override: z.boolean(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingHoliday");

export const overrideResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number(),
    date: z.string(),
    start_minute: z.number(),
    end_minute: z.number(),
    break_start_minute: z.number().nullable(),
    break_end_minute: z.number().nullable(),
    break_title: z.string().nullable(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingWorkdayOverride");

export const timeOffResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number().nullable(),
    kind: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    title: z.string().nullable(),
    notes: z.string().nullable(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingTimeOff");
