import type { Expense, Payment } from "../../models/scheduling/Appointment";
import type { Calendar, ResourceSlots } from "../../scheduling/calendar";
import { DEFAULT_TIMEZONE } from "../../scheduling/constants";
import { isoInZone } from "../../scheduling/timezone";
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
 * The calendar response, `{"payload": …}`, as UTF-8 JSON in pieces (together, they are the body):
 * the presenters' objects through JSON.stringify, then the slots, a piece for each resource. A month
 * view is megabytes of slots: each resource's text becomes bytes at once, so that no text of
 * megabytes outlives the request's first garbage collection, and the pieces go out as they are.
 * Slot times carry their resource's UTC offset, the range the account's scheduling timezone's.
 */
export function calendarBody(calendar: Calendar): Buffer[] {
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
  const slots = slotsJson(calendar.slots).map((piece, i) => (i ? `,${piece}` : piece));
  return [`${JSON.stringify({ payload }).slice(0, -2)},"slots":[`, ...slots, "]}}"].map((piece) => Buffer.from(piece));
}

/** `"starts_at":…,"ends_at":…,"status":"available"}`, a slot's JSON after its resource id, by start, for each zone and length. */
const slotTailsByTimes = new Map<string, Map<number, string>>();
const MAX_SLOT_TAILS = 50_000;

function slotTails(timeZone: string, durationMs: number): (start: number) => string {
  const key = `${timeZone} ${durationMs}`;
  let tails = slotTailsByTimes.get(key);
  if (!tails) slotTailsByTimes.set(key, (tails = new Map()));
  const known = tails;
  return (start) => {
    let tail = known.get(start);
    if (tail === undefined) {
      const slot = { starts_at: isoInZone(start, timeZone), ends_at: isoInZone(start + durationMs, timeZone), status: "available" };
      if (known.size >= MAX_SLOT_TAILS) known.clear();
      known.set(start, (tail = JSON.stringify(slot).slice(1)));
    }
    return tail;
  };
}

/**
 * Each resource's slots as JSON array elements, each as JSON.stringify writes `{resource_id, starts_at, ends_at, status: "available"}`:
 * tens of thousands in a month view, but a few hundred distinct times, so each slot is its
 * resource's id before the text of its times, written once (by JSON.stringify) and then reused.
 */
function slotsJson(groups: readonly ResourceSlots[]): string[] {
  // Resources on one timetable share their list of starts (slots.ts), and so the texts of their times.
  const tailsOf = new Map<readonly number[], string[]>();
  const pieces: string[] = [];
  for (const { resource, starts, durationMs } of groups) {
    if (!starts.length) continue;
    let tails = tailsOf.get(starts);
    if (!tails) tailsOf.set(starts, (tails = starts.map(slotTails(resource.timezone, durationMs))));
    const opening = `{"resource_id":${JSON.stringify(resource.id)},`;
    pieces.push(opening + tails.join(`,${opening}`));
  }
  return pieces;
}
