import type { Expense, Payment } from "../../models/scheduling/Appointment";
import type { Calendar, ResourceSlots } from "../../scheduling/calendar";
import { DEFAULT_TIMEZONE } from "../../scheduling/constants";
import { isoFormatter, isoInZone } from "../../scheduling/timezone";
import { currentExpense, presentAppointment, presentExpense, presentPayment } from "./appointments";
import { presentHoliday, presentTimeOff, presentWorkdayOverride } from "./exceptions";
import { presentBreakRule, presentResource, presentWorkRule } from "./resources";

function byAppointment<T extends Payment | Expense>(items: readonly T[]): (id: number) => T[] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(item.appointment_id);
    if (group) group.push(item);
    else groups.set(item.appointment_id, [item]);
  }
  return (id) => groups.get(id) ?? [];
}

/**
 * The calendar response, `{"payload": …}`, as JSON text: the presenters' objects through
 * JSON.stringify. Slot times carry their resource's UTC offset, the range the account's scheduling
 * timezone's. The slots (tens of thousands in a month view) come last, written by slotsJson.
 */
export function calendarBody(calendar: Calendar): string {
  const paymentsOf = byAppointment(calendar.payments);
  const expensesOf = byAppointment(calendar.expenses);
  const zone = calendar.query.timeZone ?? DEFAULT_TIMEZONE;
  const payload = {
    view: calendar.query.view,
    range: { from: isoInZone(calendar.query.range.start, zone), to: isoInZone(calendar.query.range.end, zone) },
    resources: calendar.resources.map(presentResource),
    work_rules: calendar.workRules.map(presentWorkRule),
    break_rules: calendar.breakRules.map(presentBreakRule),
    holidays: calendar.holidays.map(presentHoliday),
    workday_overrides: calendar.overrides.map(presentWorkdayOverride),
    time_offs: calendar.timeOffs.map(presentTimeOff),
    appointments: calendar.appointments.map((a) => presentAppointment(a, paymentsOf(a.id), currentExpense(a, expensesOf(a.id)))),
    payments: calendar.payments.map(presentPayment),
    expenses: calendar.expenses.map(presentExpense),
  };
  // The payload's last key, "slots", goes inside the object the text's last two braces close.
  return `${JSON.stringify({ payload }).slice(0, -2)},"slots":[${slotsJson(calendar.slots)}]}}`;
}

/**
 * The slots as JSON array elements, each as JSON.stringify writes `{resource_id, starts_at, ends_at, status: "available"}`.
 * Resources on one timetable share one list of slot starts (slots.ts); the second and later of them
 * reuse the first one's text with their own id in it, which can only appear in the text as the
 * value of `"resource_id"` (the rest is times and "available").
 */
function slotsJson(groups: readonly ResourceSlots[]): string {
  const written = new Map<readonly number[], { id: number; json: string }>();
  const parts: string[] = [];
  for (const { resource, starts, durationMs } of groups) {
    if (!starts.length) continue;
    const known = written.get(starts);
    if (known) {
      parts.push(known.json.replaceAll(`{"resource_id":${known.id},`, `{"resource_id":${resource.id},`));
      continue;
    }
    const iso = isoFormatter(resource.timezone);
    const slots = starts.map((start) => ({ resource_id: resource.id, starts_at: iso(start), ends_at: iso(start + durationMs), status: "available" }));
    const json = JSON.stringify(slots).slice(1, -1);
    written.set(starts, { id: resource.id, json });
    parts.push(json);
  }
  return parts.join(",");
}
