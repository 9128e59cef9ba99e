import type { Holiday } from "../../models/scheduling/Holiday";
import type { TimeOff } from "../../models/scheduling/TimeOff";
import type { WorkdayOverride } from "../../models/scheduling/WorkdayOverride";
import { iso } from "../time";

export function presentHoliday(holiday: Holiday) {
  return {
    id: holiday.id,
    account_id: holiday.account_id,
    date: holiday.date,
    title: holiday.title,
    recurring_yearly: holiday.recurring_yearly,
    working_day_override: holiday.working_day_override,
    custom_attributes: holiday.custom_attributes,
  };
}

export function presentWorkdayOverride(override: WorkdayOverride) {
  return {
    id: override.id,
    account_id: override.account_id,
    resource_id: override.resource_id,
    date: override.date,
    start_minute: override.start_minute,
    end_minute: override.end_minute,
    break_start_minute: override.break_start_minute,
    break_end_minute: override.break_end_minute,
    break_title: override.break_title,
    custom_attributes: override.custom_attributes,
  };
}

export function presentTimeOff(timeOff: TimeOff) {
  return {
    id: timeOff.id,
    account_id: timeOff.account_id,
    resource_id: timeOff.resource_id,
    kind: timeOff.kind,
    starts_at: iso(timeOff.starts_at),
    ends_at: iso(timeOff.ends_at),
    title: timeOff.title,
    notes: timeOff.notes,
    custom_attributes: timeOff.custom_attributes,
  };
}
