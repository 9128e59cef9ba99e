import type { Calendar, ResourceSlots } from "../../scheduling/calendar";
import { DEFAULT_TIMEZONE } from "../../scheduling/constants";
import { isoInZone, isoWriter, MAX_ISO_BYTES } from "../../scheduling/timezone";
import { presentAppointment, presentExpense, presentPayment } from "./appointments";
import { presentHoliday, presentTimeOff, presentWorkdayOverride } from "./exceptions";
import { presentBreakRule, presentResource, presentWorkRule } from "./resources";

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/**
 * The calendar response, `{"payload": …}`, as UTF-8 JSON: exactly the bytes JSON.stringify would
 * give for the payload, with the slots (tens of thousands in a month view) written straight into
 * the buffer instead of becoming objects and strings first. Slot times carry their resource's UTC
 * offset, the range the default zone's.
 */
export function calendarBody(calendar: Calendar): Buffer {
  const paymentsOf = groupBy(calendar.payments, (p) => p.appointment_id);
  const expenseOf = new Map(calendar.expenses.map((e) => [e.appointment_id, e]));
  const payload = {
    view: calendar.query.view,
    range: { from: isoInZone(calendar.query.range.start, DEFAULT_TIMEZONE), to: isoInZone(calendar.query.range.end, DEFAULT_TIMEZONE) },
    resources: calendar.resources.map(presentResource),
    work_rules: calendar.workRules.map(presentWorkRule),
    break_rules: calendar.breakRules.map(presentBreakRule),
    holidays: calendar.holidays.map(presentHoliday),
    workday_overrides: calendar.overrides.map(presentWorkdayOverride),
    time_offs: calendar.timeOffs.map(presentTimeOff),
    appointments: calendar.appointments.map((a) => presentAppointment(a, paymentsOf.get(a.id) ?? [], expenseOf.get(a.id))),
    payments: calendar.payments.map(presentPayment),
    expenses: calendar.expenses.map(presentExpense),
    // Last, so the slots can be written where this empty list ends.
    slots: [],
  };
  const text = JSON.stringify({ payload });
  const close = "]}}";
  if (!text.endsWith(`"slots":[${close}`)) throw new Error("calendar payload: slots must be its last key");
  const head = Buffer.from(text.slice(0, -close.length));
  const count = calendar.slots.reduce((n, group) => n + group.starts.length, 0);
  const body = Buffer.allocUnsafe(head.length + count * MAX_SLOT_BYTES + close.length);
  let at = head.copy(body);
  at = writeSlots(calendar.slots, body, at);
  at += body.write(close, at, "latin1");
  return body.subarray(0, at);
}

const SLOT_STARTS_AT = '"starts_at":"';
const SLOT_ENDS_AT = '","ends_at":"';
const SLOT_CLOSE = '","status":"available"}';
/** `{"resource_id":<up to 16 digits>,` then the fixed keys and two instants, and the comma before the next slot. */
const MAX_SLOT_BYTES = '{"resource_id":,'.length + 16 + SLOT_STARTS_AT.length + SLOT_ENDS_AT.length + SLOT_CLOSE.length + 2 * MAX_ISO_BYTES + 1;

const bytes = (text: string) => Buffer.from(text, "latin1");
const ENDS_AT_BYTES = bytes(SLOT_ENDS_AT);
const CLOSE_BYTES = bytes(SLOT_CLOSE);

function put(source: Uint8Array, into: Uint8Array, at: number): number {
  for (let i = 0; i < source.length; i++) into[at++] = source[i]!;
  return at;
}

/**
 * The slots as JSON array elements, each as JSON.stringify writes `{resource_id, starts_at, ends_at, status: "available"}`.
 * Resources of one zone and slot length mostly share their slot times, so each slot's text after its
 * resource id is written once and copied for the next resource with that slot.
 */
function writeSlots(groups: readonly ResourceSlots[], into: Buffer, at: number): number {
  const written = new Map<string, Map<number, Uint8Array>>();
  let first = true;
  for (const { resource, starts, durationMs } of groups) {
    const iso = isoWriter(resource.timezone);
    const opening = bytes(`{"resource_id":${JSON.stringify(resource.id)},${SLOT_STARTS_AT}`);
    const sameTimes = `${resource.timezone} ${durationMs}`;
    let tails = written.get(sameTimes);
    if (!tails) written.set(sameTimes, (tails = new Map()));
    for (const start of starts) {
      if (!first) into[at++] = 0x2c; // ","
      first = false;
      at = put(opening, into, at);
      const tail = tails.get(start);
      if (tail) {
        into.set(tail, at);
        at += tail.length;
        continue;
      }
      const from = at;
      at = iso(start, into, at);
      at = put(ENDS_AT_BYTES, into, at);
      at = iso(start + durationMs, into, at);
      at = put(CLOSE_BYTES, into, at);
      // Bytes already written are never overwritten: the view stays valid for later copies.
      tails.set(start, into.subarray(from, at));
    }
  }
  return at;
}
