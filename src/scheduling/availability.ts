/**
 * The availability engine: what a resource's day looks like, which parts of it are free, and
 * whether an interval can be booked (and if not, which rule blocks it). Pure: callers load the
 * schedule; the calendar's slots and the booking check both come from here, so a slot the calendar
 * offers is exactly an interval the booking check accepts.
 */
import { SLOT_STEP_MINUTES } from "./constants";
import type { BookingBlockCode } from "./errors";
import { contains, type Interval, overlaps, subtract } from "./intervals";
import { addDays, instantOf, type LocalDate, localDateOf, monthDay, weekdayOf } from "./timezone";

const MINUTE_MS = 60_000;

/** A weekly work or break rule: minutes since local midnight on a weekday (0 = Sunday). */
export interface WeeklyRule {
  weekday: number;
  start_minute: number;
  end_minute: number;
  active: boolean;
}

export interface HolidayRule {
  date: LocalDate;
  recurring_yearly: boolean;
  /** The holiday is marked but the day is worked from the weekly rules. */
  working_day_override: boolean;
}

export interface DayOverride {
  date: LocalDate;
  start_minute: number;
  end_minute: number;
  break_start_minute: number | null;
  break_end_minute: number | null;
}

export interface BookedInterval extends Interval {
  id: number;
  status: string;
}

/** Everything that decides one resource's availability, for the days being asked about. */
export interface ResourceSchedule {
  timezone: string;
  workRules: readonly WeeklyRule[];
  breakRules: readonly WeeklyRule[];
  /** The account's holidays (they apply to every resource). */
  holidays: readonly HolidayRule[];
  overrides: readonly DayOverride[];
  /** The resource's own time off and the account-wide one. */
  timeOffs: readonly Interval[];
  appointments: readonly BookedInterval[];
}

export interface DayPlan {
  date: LocalDate;
  /** A holiday closes the day: no override for it, and none of its holidays is a working day. */
  closedByHoliday: boolean;
  /** Not merged: 09–13 and 13–18 stay two intervals, and a booking must fit inside one. */
  working: Interval[];
  breaks: Interval[];
}

function holidayCloses(holidays: readonly HolidayRule[], day: LocalDay): boolean {
  if (holidays.length === 0) return false;
  const matching = holidays.filter((h) => (h.recurring_yearly ? monthDay(h.date) === day.monthDay : h.date === day.date));
  return matching.length > 0 && !matching.some((h) => h.working_day_override);
}

/**
 * A local date of one zone with what the engine asks of it worked out once: its weekday, its
 * "MM-DD", and wall-clock minutes as instants (memoised: every resource asks for the same few).
 */
export class LocalDay {
  readonly weekday: number;
  readonly monthDay: string;
  private readonly instants = new Map<number, number>();

  constructor(
    readonly date: LocalDate,
    readonly timeZone: string,
  ) {
    this.weekday = weekdayOf(date);
    this.monthDay = monthDay(date);
  }

  /** instantOf(date, minute, zone). */
  instant(minute: number): number {
    let instant = this.instants.get(minute);
    if (instant === undefined) this.instants.set(minute, (instant = instantOf(this.date, minute, this.timeZone)));
    return instant;
  }
}

/** The local days of one zone, shared by every schedule in that zone for the length of one computation. */
export class LocalDays {
  private readonly days = new Map<LocalDate, LocalDay>();

  constructor(readonly timeZone: string) {}

  day(date: LocalDate): LocalDay {
    let day = this.days.get(date);
    if (!day) this.days.set(date, (day = new LocalDay(date, this.timeZone)));
    return day;
  }

  /** The days localDatesBetween lists. */
  between(range: Interval): LocalDay[] {
    return localDatesBetween(range, this.timeZone).map((date) => this.day(date));
  }
}

/** The working intervals and breaks of a local date: the override's if there is one, else the weekly rules'. */
export function planDay(schedule: ResourceSchedule, date: LocalDate, days?: LocalDays): DayPlan {
  return planOf(schedule, (days ?? new LocalDays(schedule.timezone)).day(date));
}

function planOf(schedule: ResourceSchedule, day: LocalDay): DayPlan {
  if (day.timeZone !== schedule.timezone) throw new Error(`A ${day.timeZone} day planned for a ${schedule.timezone} schedule`);
  const date = day.date;
  // A wall-clock span can vanish on a spring-forward day (02:00–03:00 in Europe/Berlin).
  const span = (startMinute: number, endMinute: number): Interval[] => {
    const start = day.instant(startMinute);
    const end = day.instant(endMinute);
    return end > start ? [{ start, end }] : [];
  };
  const override = schedule.overrides.find((o) => o.date === date);
  if (override) {
    const hasBreak = override.break_start_minute !== null && override.break_end_minute !== null;
    return {
      date,
      closedByHoliday: false,
      working: span(override.start_minute, override.end_minute),
      breaks: hasBreak ? span(override.break_start_minute!, override.break_end_minute!) : [],
    };
  }
  const ofDay = (rules: readonly WeeklyRule[]) => rules.filter((r) => r.active && r.weekday === day.weekday).flatMap((r) => span(r.start_minute, r.end_minute));
  return {
    date,
    closedByHoliday: holidayCloses(schedule.holidays, day),
    working: ofDay(schedule.workRules),
    breaks: ofDay(schedule.breakRules),
  };
}

const blocksBooking = (appointment: BookedInterval) => appointment.status !== "cancelled";

/** The bookable parts of a local date: working intervals minus breaks, time off and live appointments. */
export function freeIntervals(schedule: ResourceSchedule, date: LocalDate): Interval[] {
  const plan = planDay(schedule, date);
  if (plan.closedByHoliday) return [];
  const busy = [...plan.breaks, ...schedule.timeOffs, ...schedule.appointments.filter(blocksBooking)];
  return plan.working.flatMap((interval) => subtract(interval, busy));
}

export type BookingVerdict = { bookable: true; date: LocalDate } | { bookable: false; code: BookingBlockCode | "VALIDATION_ERROR"; message: string };

export interface BookingRequest extends Interval {
  /** The appointment being moved, which must not conflict with itself. */
  excludeAppointmentId?: number;
}

const refuse = (code: BookingBlockCode | "VALIDATION_ERROR", message: string): BookingVerdict => ({ bookable: false, code, message });

/** Whether an interval can be booked; the first failing rule, in the fork's order (reference §5), wins. */
export function checkBooking(schedule: ResourceSchedule, request: BookingRequest): BookingVerdict {
  if (request.end <= request.start) return refuse("VALIDATION_ERROR", "ends_at must be after starts_at");
  const date = localDateOf(request.start, schedule.timezone);
  if (localDateOf(request.end - 1000, schedule.timezone) !== date) {
    return refuse("OUTSIDE_WORKING_HOURS", "Appointment must fit into one local day");
  }
  const plan = planDay(schedule, date);
  if (plan.closedByHoliday) return refuse("BLOCKED_BY_HOLIDAY", "The resource does not work on this holiday");
  if (plan.working.length === 0) return refuse("OUTSIDE_WORKING_HOURS", "No working rules configured for this day");
  if (!plan.working.some((interval) => contains(interval, request))) {
    return refuse("OUTSIDE_WORKING_HOURS", "Appointment is outside working hours");
  }
  if (plan.breaks.some((b) => overlaps(b, request))) return refuse("BLOCKED_BY_BREAK", "Appointment overlaps a break");
  if (schedule.timeOffs.some((t) => overlaps(t, request))) return refuse("BLOCKED_BY_VACATION", "The resource is off at this time");
  const conflict = schedule.appointments.some((a) => blocksBooking(a) && a.id !== request.excludeAppointmentId && overlaps(a, request));
  if (conflict) return refuse("SLOT_CONFLICT", "The resource already has an appointment at this time");
  return { bookable: true, date };
}

/** Every local date of the zone that [from, to) touches. */
export function localDatesBetween(range: Interval, timeZone: string): LocalDate[] {
  const last = localDateOf(range.end - 1000, timeZone);
  const dates: LocalDate[] = [];
  for (let date = localDateOf(range.start, timeZone); date <= last; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/**
 * Bookable windows of `durationMin` inside the range: in each free interval (clipped to the range)
 * a window starts at the interval's start and every SLOT_STEP_MINUTES after, while it still fits.
 */
export function slotsOf(schedule: ResourceSchedule, range: Interval, durationMin: number, days?: LocalDays): Interval[] {
  const duration = durationMin * MINUTE_MS;
  return slotStarts(schedule, range, durationMin, days).map((start) => ({ start, end: start + duration }));
}

/**
 * A text two schedules share only if slotStarts answers them alike for one range: their zone, the
 * slot length, their rules, holidays, overrides, time off and live bookings' times. Resources on
 * one timetable share it, so their slots are computed once.
 */
export function slotsKey(schedule: ResourceSchedule, durationMin: number): string {
  const parts: unknown[] = [schedule.timezone, durationMin];
  for (const r of schedule.workRules) parts.push("w", r.weekday, r.start_minute, r.end_minute, r.active);
  for (const r of schedule.breakRules) parts.push("b", r.weekday, r.start_minute, r.end_minute, r.active);
  for (const h of schedule.holidays) parts.push("h", h.date, h.recurring_yearly, h.working_day_override);
  for (const o of schedule.overrides) parts.push("o", o.date, o.start_minute, o.end_minute, o.break_start_minute, o.break_end_minute);
  for (const t of schedule.timeOffs) parts.push("t", t.start, t.end);
  for (const a of schedule.appointments) if (blocksBooking(a)) parts.push("a", a.start, a.end);
  return parts.join(" ");
}

/**
 * The starts of slotsOf's windows (each lasts durationMin), ascending and distinct: the calendar's
 * month view asks for tens of thousands, so this keeps them as plain numbers. The schedule's busy
 * intervals are gathered once, and each day's working intervals are cut only by those that touch them.
 */
export function slotStarts(schedule: ResourceSchedule, range: Interval, durationMin: number, days = new LocalDays(schedule.timezone)): number[] {
  const duration = durationMin * MINUTE_MS;
  const step = SLOT_STEP_MINUTES * MINUTE_MS;
  const busy: Interval[] = [...schedule.timeOffs, ...schedule.appointments.filter(blocksBooking)];
  const starts: number[] = [];
  let ordered = true;
  for (const day of days.between(range)) {
    const plan = planOf(schedule, day);
    if (plan.closedByHoliday) continue;
    for (const working of plan.working) {
      // Cuts that miss the working interval cannot cut any piece of it: leaving them out changes nothing.
      const cuts = plan.breaks.filter((b) => overlaps(b, working));
      for (const b of busy) if (overlaps(b, working)) cuts.push(b);
      for (const free of cuts.length ? subtract(working, cuts) : [working]) {
        const from = Math.max(free.start, range.start);
        const to = Math.min(free.end, range.end);
        if (to <= from) continue;
        if (starts.length && from <= starts[starts.length - 1]!) ordered = false;
        for (let start = from; start + duration <= to; start += step) starts.push(start);
      }
    }
  }
  if (ordered) return starts;
  // Overlapping weekly rules offer the same window twice; list it once.
  starts.sort((a, b) => a - b);
  return starts.filter((start, i) => i === 0 || start !== starts[i - 1]);
}
