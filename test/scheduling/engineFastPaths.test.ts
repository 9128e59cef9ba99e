import test from "ava";
import { freeIntervals, LocalDays, localDatesBetween, planDay, type ResourceSchedule, slotStarts } from "../../src/scheduling/availability";
import { SLOT_STEP_MINUTES } from "../../src/scheduling/constants";
import { instantOf } from "../../src/scheduling/timezone";

const at = (iso: string) => Date.parse(iso);
const ZONES = ["Asia/Almaty", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"];

function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** Overlapping rules, overrides, holidays, time off and bookings around both DST changes of 2026. */
function randomSchedule(random: () => number, timezone: string, firstDay: string): ResourceSchedule {
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const rule = (weekday: number) => {
    const start = int(0, 280) * 5;
    return { weekday, start_minute: start, end_minute: Math.min(1440, start + int(5, 600)), active: random() > 0.1 };
  };
  const date = (offset: number) => new Date(at(`${firstDay}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const interval = () => {
    const start = at(`${firstDay}T00:00:00Z`) + int(0, 10 * 24 * 60) * 60_000;
    return { start, end: start + int(5, 900) * 60_000 };
  };
  return {
    timezone,
    workRules: Array.from({ length: int(3, 12) }, () => rule(int(0, 6))),
    breakRules: Array.from({ length: int(0, 6) }, () => rule(int(0, 6))),
    holidays: Array.from({ length: int(0, 2) }, () => ({ date: date(int(0, 9)), recurring_yearly: random() > 0.5, working_day_override: random() > 0.7 })),
    overrides: Array.from({ length: int(0, 2) }, () => {
      const start = int(0, 1000);
      const hasBreak = random() > 0.5;
      return {
        date: date(int(0, 9)),
        start_minute: start,
        end_minute: Math.min(1440, start + int(30, 400)),
        break_start_minute: hasBreak ? start + 10 : null,
        break_end_minute: hasBreak ? start + 25 : null,
      };
    }),
    timeOffs: Array.from({ length: int(0, 3) }, interval),
    appointments: Array.from({ length: int(0, 40) }, (_, id) => ({ id, status: random() > 0.8 ? "cancelled" : "scheduled", ...interval() })),
  };
}

/** The slots as the engine first computed them: window objects from every free interval, sorted, repeats dropped. */
function referenceStarts(schedule: ResourceSchedule, range: { start: number; end: number }, durationMin: number): number[] {
  const slots: { start: number; end: number }[] = [];
  for (const date of localDatesBetween(range, schedule.timezone)) {
    for (const free of freeIntervals(schedule, date)) {
      const start = Math.max(free.start, range.start);
      const end = Math.min(free.end, range.end);
      for (let s = start; s + durationMin * 60_000 <= end; s += SLOT_STEP_MINUTES * 60_000) slots.push({ start: s, end: s + durationMin * 60_000 });
    }
  }
  slots.sort((a, b) => a.start - b.start);
  return slots.filter((slot, i) => i === 0 || slot.start !== slots[i - 1]!.start).map((slot) => slot.start);
}

test("slotStarts offers exactly the windows of the free intervals, with one zone's days shared by many schedules", (t) => {
  const random = prng(3);
  let offered = 0;
  for (const timezone of ZONES) {
    for (const firstDay of ["2026-03-24", "2026-10-20"]) {
      const days = new LocalDays(timezone);
      // A range that starts and ends mid-day, so clipping is exercised.
      const range = { start: at(`${firstDay}T07:13:00Z`), end: at(`${firstDay}T07:13:00Z`) + 9 * 86_400_000 + 3_600_000 };
      for (let round = 0; round < 25; round++) {
        const schedule = randomSchedule(random, timezone, firstDay);
        const duration = [5, 20, 30, 45, 90][Math.floor(random() * 5)]!;
        const starts = slotStarts(schedule, range, duration, days);
        t.deepEqual(starts, referenceStarts(schedule, range, duration), `${timezone} from ${firstDay}, round ${round}`);
        offered += starts.length;
      }
    }
  }
  t.true(offered > 10_000, "the schedules offered slots");
});

test("a LocalDays day plans like a fresh one, and its instants are instantOf's", (t) => {
  for (const timezone of ZONES) {
    const days = new LocalDays(timezone);
    for (const date of ["2026-03-08", "2026-03-29", "2026-04-05", "2026-10-04", "2026-10-25", "2026-11-01"]) {
      for (const minute of [0, 90, 120, 150, 179, 180, 181, 600, 1439, 1440]) t.is(days.day(date).instant(minute), instantOf(date, minute, timezone));
      const schedule = randomSchedule(prng(date.length + minuteSeed(date)), timezone, date);
      t.deepEqual(planDay(schedule, date, days), planDay(schedule, date));
    }
  }
  t.throws(() => planDay(randomSchedule(prng(1), "Asia/Almaty", "2026-03-02"), "2026-03-02", new LocalDays("Europe/Berlin")));
});

const minuteSeed = (date: string) => Number(date.replaceAll("-", "")) % 1000;

test("local dates and weekdays across DST changes and year ends are Intl's, each date once", (t) => {
  // Intl's own answer for every hour of the range: the local date and weekday it falls on.
  const intlDays = (range: { start: number; end: number }, timeZone: string) => {
    const date = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    const weekday = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short" });
    const days = new Map<string, number>();
    const instants = [range.end - 1000];
    for (let ms = range.start; ms < range.end; ms += 3_600_000) instants.splice(-1, 0, ms);
    for (const ms of instants) days.set(date.format(ms), ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(weekday.format(ms)));
    return days;
  };
  const ranges = [
    // Europe/Berlin springs forward on 2037-03-29 and falls back on 2037-10-25; Lord Howe moves by half an hour.
    { start: at("2037-03-27T10:00:00Z"), end: at("2037-04-01T00:00:00Z") },
    { start: at("2037-10-23T22:00:00Z"), end: at("2037-10-27T05:00:00Z") },
    { start: at("2036-12-30T00:00:00Z"), end: at("2037-01-02T12:00:00Z") },
    { start: at("2024-02-27T00:00:00Z"), end: at("2024-03-02T00:00:00Z") },
  ];
  for (const timezone of ZONES) {
    for (const range of ranges) {
      const expected = intlDays(range, timezone);
      const days = new LocalDays(timezone).between(range);
      t.deepEqual(
        days.map((day) => [day.date, day.weekday]),
        [...expected],
        `${timezone} ${new Date(range.start).toISOString()}`,
      );
    }
  }
});
