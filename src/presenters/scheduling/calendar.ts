import type { Calendar, ResourceSlots } from "../../scheduling/calendar";
import { type ShownMoney, writeAppointment, writeExpense, writePayment } from "../../scheduling/calendarRows";
import { JsonBytes } from "../../scheduling/jsonBytes";
import { DEFAULT_TIMEZONE } from "../../scheduling/constants";
import { isoInZone, isoWriter, MAX_ISO_BYTES } from "../../scheduling/timezone";
import { presentHoliday, presentTimeOff, presentWorkdayOverride } from "./exceptions";
import { presentBreakRule, presentResource, presentWorkRule } from "./resources";

function byAppointment(money: readonly ShownMoney[]): Map<number, ShownMoney[]> {
  const groups = new Map<number, ShownMoney[]>();
  for (const item of money) {
    const group = groups.get(item.appointment_id);
    if (group) group.push(item);
    else groups.set(item.appointment_id, [item]);
  }
  return groups;
}

/** Items written by `write`, as a JSON list's elements. */
function writeList<T>(into: JsonBytes, items: readonly T[], write: (into: JsonBytes, item: T) => void) {
  items.forEach((item, i) => {
    if (i) into.ascii(",");
    write(into, item);
  });
}

/**
 * The calendar response, `{"payload": …}`, as UTF-8 JSON: exactly the bytes JSON.stringify would
 * give for the payload. Appointments, payments and expenses are written from PostgreSQL's text (see
 * scheduling/calendarRows.ts), and the slots (tens of thousands in a month view) straight into the
 * buffer, instead of becoming objects and strings first. Slot times carry their resource's UTC
 * offset, the range the account's scheduling timezone's.
 */
export function calendarBody(calendar: Calendar): Buffer {
  const paymentsOf = byAppointment(calendar.payments);
  // The appointment's own expense is its current resource's compensation (as currentExpense picks it).
  const compensations = new Map(calendar.expenses.filter((e) => e.kind === "compensation").map((e) => [`${e.appointment_id}:${e.resource_id}`, e]));
  const zone = calendar.query.timeZone ?? DEFAULT_TIMEZONE;
  const rules = JSON.stringify({
    view: calendar.query.view,
    range: { from: isoInZone(calendar.query.range.start, zone), to: isoInZone(calendar.query.range.end, zone) },
    resources: calendar.resources.map(presentResource),
    work_rules: calendar.workRules.map(presentWorkRule),
    break_rules: calendar.breakRules.map(presentBreakRule),
    holidays: calendar.holidays.map(presentHoliday),
    workday_overrides: calendar.overrides.map(presentWorkdayOverride),
    time_offs: calendar.timeOffs.map(presentTimeOff),
  });
  const slotCount = calendar.slots.reduce((n, group) => n + group.starts.length, 0);
  const into = new JsonBytes(rules.length + calendar.appointments.length * 1024 + slotCount * MAX_SLOT_BYTES);
  // The rest of the payload's keys follow time_offs, inside the object `rules` closes.
  into.text(`{"payload":${rules.slice(0, -1)},"appointments":[`);
  writeList(into, calendar.appointments, (into, appointment) => {
    writeAppointment(into, appointment);
    into.ascii(',"payments":[');
    writeList(into, paymentsOf.get(appointment.id) ?? [], (into, payment) => writePayment(into, payment, true));
    into.ascii('],"expense":');
    const expense = compensations.get(`${appointment.id}:${appointment.resource_id}`);
    if (expense) writeExpense(into, expense, true);
    else into.ascii("null");
    into.ascii("}");
  });
  into.ascii('],"payments":[');
  writeList(into, calendar.payments, writePayment);
  into.ascii('],"expenses":[');
  writeList(into, calendar.expenses, writeExpense);
  into.ascii('],"slots":[');
  into.room(slotCount * MAX_SLOT_BYTES);
  into.at = writeSlots(calendar.slots, into.bytes, into.at);
  into.ascii("]}}");
  return into.done();
}

const SLOT_OPENING = ',{"resource_id":';
const SLOT_STARTS_AT = ',"starts_at":"';
const SLOT_ENDS_AT = '","ends_at":"';
const SLOT_CLOSE = '","status":"available"}';
/** A slot with the comma before it: `,{"resource_id":<up to 16 digits>` then the fixed keys and two instants. */
const MAX_SLOT_BYTES = SLOT_OPENING.length + 16 + SLOT_STARTS_AT.length + SLOT_ENDS_AT.length + SLOT_CLOSE.length + 2 * MAX_ISO_BYTES;

const bytes = (text: string) => Buffer.from(text, "latin1");
const OPENING_BYTES = bytes(SLOT_OPENING);
const STARTS_AT_BYTES = bytes(SLOT_STARTS_AT);
const ENDS_AT_BYTES = bytes(SLOT_ENDS_AT);
const CLOSE_BYTES = bytes(SLOT_CLOSE);

function put(source: Uint8Array, into: Uint8Array, at: number): number {
  for (let i = 0; i < source.length; i++) into[at++] = source[i]!;
  return at;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One resource's slots as written: where they lie in the body and where each slot's resource id begins. */
interface WrittenRun {
  starts: readonly number[];
  from: number;
  to: number;
  idLength: number;
  idAt: Int32Array;
}

/**
 * The slots as JSON array elements, each as JSON.stringify writes `{resource_id, starts_at, ends_at, status: "available"}`,
 * right after the list's "[" at `at - 1`. Resources of one zone and slot length mostly share their slot
 * times: a resource whose slots are those of one already written is a copy of its bytes with the ids
 * replaced, and otherwise each slot's text after its resource id is written once and copied for the
 * next resource with that slot.
 */
function writeSlots(groups: readonly ResourceSlots[], into: Buffer, at: number): number {
  // Every slot is written with a comma before it; the first one's becomes the list's "[" again at the end.
  const list = at - 1;
  at = list;
  const tailsByTimes = new Map<string, Map<number, Uint8Array>>();
  const runsByTimes = new Map<string, WrittenRun>();
  for (const { resource, starts, durationMs } of groups) {
    const id = bytes(JSON.stringify(resource.id));
    const times = `${resource.timezone} ${durationMs}`;
    const run = runsByTimes.get(times);
    if (run && run.idLength === id.length && sameNumbers(run.starts, starts)) {
      into.copyWithin(at, run.from, run.to);
      const shift = at - run.from;
      for (const idAt of run.idAt) put(id, into, idAt + shift);
      at += run.to - run.from;
      continue;
    }
    let tails = tailsByTimes.get(times);
    if (!tails) tailsByTimes.set(times, (tails = new Map()));
    const iso = isoWriter(resource.timezone);
    const from = at;
    const idAt = new Int32Array(starts.length);
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i]!;
      at = put(OPENING_BYTES, into, at);
      idAt[i] = at;
      at = put(id, into, at);
      at = put(STARTS_AT_BYTES, into, at);
      const tail = tails.get(start);
      if (tail) {
        into.set(tail, at);
        at += tail.length;
        continue;
      }
      const tailFrom = at;
      at = iso(start, into, at);
      at = put(ENDS_AT_BYTES, into, at);
      at = iso(start + durationMs, into, at);
      at = put(CLOSE_BYTES, into, at);
      // Only the list's first byte is ever written twice: the view stays valid for later copies.
      tails.set(start, into.subarray(tailFrom, at));
    }
    runsByTimes.set(times, { starts, from, to: at, idLength: id.length, idAt });
  }
  if (at === list) return list + 1;
  into[list] = 0x5b; // "["
  return at;
}
