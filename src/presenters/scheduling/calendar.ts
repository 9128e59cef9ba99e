import type { Expense, Payment } from "../../models/scheduling/Appointment";
import type { Calendar, CalendarAppointment, ResourceSlots } from "../../scheduling/calendar";
import { DEFAULT_TIMEZONE } from "../../scheduling/constants";
import { isoInZone } from "../../scheduling/timezone";
import { appointmentMoney, currentExpense, presentExpense, presentPayment } from "./appointments";
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
 * Items a piece of the body holds at most, for pieces of up to about a hundred kilobytes: each piece
 * is a write to the socket, and fewer, larger writes cost less; but a text over 128 KB is a large
 * object to the JavaScript heap, given pages of its own every time (bench/HISTORY.md has the
 * measurements). By the size of an item: payments and expenses (about 200 bytes), appointments
 * (about 1.5 KB) and slots (about 120 bytes).
 */
const PIECE_ITEMS = 256;
const APPOINTMENTS_PER_PIECE = 64;
const SLOTS_PER_PIECE = 800;

/** A list's elements (the list's brackets are the caller's) as JSON text, PIECE_ITEMS at a time. */
function* elements<T>(items: readonly T[], json: (item: T) => string): Generator<string> {
  for (let i = 0; i < items.length; i += PIECE_ITEMS)
    yield `${i ? "," : ""}${items
      .slice(i, i + PIECE_ITEMS)
      .map(json)
      .join(",")}`;
}

/** The JSON of appointmentMoney with nothing paid: most appointments' in a month view. */
const NO_MONEY = JSON.stringify(appointmentMoney([], undefined));

/**
 * presentAppointment's JSON as the texts that together are it: PostgreSQL's text of appointmentFields'
 * keys up to custom_attributes, then the rest of them and the money, braces dropped where two objects
 * meet (a piece joins them once, with no text of each whole appointment in between).
 */
function appointmentParts(appointment: CalendarAppointment, payments: readonly Payment[], expense: Expense | undefined): string[] {
  const { json_before, custom_attributes, hold_expires_at, cancelled_at, cancellation_reason } = appointment;
  const rest = JSON.stringify({ custom_attributes, hold_expires_at, cancelled_at, cancellation_reason });
  const money = payments.length || expense ? JSON.stringify(appointmentMoney(payments, expense)) : NO_MONEY;
  return [json_before.slice(0, -1), ",", rest.slice(1, -1), ",", money.slice(1)];
}

/** The appointments as JSON array elements, APPOINTMENTS_PER_PIECE at a time. */
function* appointmentPieces(calendar: Calendar): Generator<string> {
  const paymentsOf = byAppointment(calendar.payments);
  const expensesOf = byAppointment(calendar.expenses);
  const { appointments } = calendar;
  for (let i = 0; i < appointments.length; i += APPOINTMENTS_PER_PIECE) {
    const parts: string[] = [];
    for (const a of appointments.slice(i, i + APPOINTMENTS_PER_PIECE)) {
      if (i || parts.length) parts.push(",");
      parts.push(...appointmentParts(a, paymentsOf(a.id), currentExpense(a, expensesOf(a.id))));
    }
    yield parts.join("");
  }
}

/**
 * The calendar response, `{"payload": …}`, as JSON text in pieces (together, they are the body),
 * each made when the response is ready for it: a month view is megabytes, and so no more of it is
 * held at once than the socket has not yet taken. The appointments' columns come as PostgreSQL's JSON
 * (calendarAppointments.ts), the other presenters' objects go through JSON.stringify, and the slots
 * (tens of thousands) are their resources' ids and the texts of their times. Slot times
 * carry their resource's UTC offset, the range the account's scheduling timezone's.
 */
export function* calendarBody(calendar: Calendar): Generator<string> {
  const zone = calendar.query.timeZone ?? DEFAULT_TIMEZONE;
  const head = {
    view: calendar.query.view,
    range: { from: isoInZone(calendar.query.range.start, zone), to: isoInZone(calendar.query.range.end, zone) },
    resources: calendar.resources.map(presentResource),
    work_rules: calendar.workRules.map(presentWorkRule),
    break_rules: calendar.breakRules.map(presentBreakRule),
    holidays: calendar.holidays.map(presentHoliday),
    workday_overrides: calendar.overrides.map(presentWorkdayOverride),
    time_offs: calendar.timeOffs.map(presentTimeOff),
  };
  // The payload's other keys go inside the object that the head's text's last two braces close.
  yield `${JSON.stringify({ payload: head }).slice(0, -2)},"appointments":[`;
  yield* appointmentPieces(calendar);
  yield '],"payments":[';
  yield* elements(calendar.payments, (p) => JSON.stringify(presentPayment(p)));
  yield '],"expenses":[';
  yield* elements(calendar.expenses, (e) => JSON.stringify(presentExpense(e)));
  yield '],"slots":[';
  yield* slotPieces(calendar.slots);
  yield "]}}";
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
 * The slots as JSON array elements, each as JSON.stringify writes `{resource_id, starts_at, ends_at, status: "available"}`:
 * tens of thousands in a month view, but a few hundred distinct times, so each slot is its
 * resource's id before the text of its times, written once (by JSON.stringify) and then reused.
 */
function* slotPieces(groups: readonly ResourceSlots[]): Generator<string> {
  // Resources on one timetable share their list of starts (slots.ts), and so the texts of their times.
  const tailsOf = new Map<readonly number[], string[]>();
  let first = true;
  for (const { resource, starts, durationMs } of groups) {
    let tails = tailsOf.get(starts);
    if (!tails) tailsOf.set(starts, (tails = starts.map(slotTails(resource.timezone, durationMs))));
    const opening = `{"resource_id":${JSON.stringify(resource.id)},`;
    for (let i = 0; i < tails.length; i += SLOTS_PER_PIECE) {
      yield `${first ? "" : ","}${opening}${tails.slice(i, i + SLOTS_PER_PIECE).join(`,${opening}`)}`;
      first = false;
    }
  }
}
