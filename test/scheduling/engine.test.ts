import test from "ava";
import { checkBooking, freeIntervals, type ResourceSchedule, slotsOf } from "../../src/scheduling/availability";
import { instantOf, isoFormatter, isoInZone } from "../../src/scheduling/timezone";

const ALMATY = "Asia/Almaty";
const BERLIN = "Europe/Berlin";
const at = (iso: string) => Date.parse(iso);
const span = (from: string, to: string) => ({ start: at(from), end: at(to) });
const weekdays = (days: number[], start: number, end: number) => days.map((weekday) => ({ weekday, start_minute: start, end_minute: end, active: true }));

function schedule(overrides: Partial<ResourceSchedule> = {}): ResourceSchedule {
  return {
    timezone: ALMATY,
    workRules: weekdays([1, 2, 3, 4, 5], 9 * 60, 18 * 60),
    breakRules: weekdays([1, 2, 3, 4, 5], 13 * 60, 14 * 60),
    holidays: [],
    overrides: [],
    timeOffs: [],
    appointments: [],
    ...overrides,
  };
}

const verdict = (s: ResourceSchedule, from: string, to: string, excludeAppointmentId?: number) => {
  const v = checkBooking(s, { ...span(from, to), excludeAppointmentId });
  return v.bookable ? "OK" : v.code;
};

test("weekday 1 is Monday and minutes are local to the resource's zone", (t) => {
  // 2026-03-02 is a Monday; 09:00 in Almaty (+05:00) is 04:00 UTC.
  const free = freeIntervals(schedule(), "2026-03-02");
  t.deepEqual(free, [span("2026-03-02T04:00:00Z", "2026-03-02T08:00:00Z"), span("2026-03-02T09:00:00Z", "2026-03-02T13:00:00Z")]);
  t.deepEqual(freeIntervals(schedule(), "2026-03-01"), [], "Sunday (weekday 0) has no rules");
});

test("slots are sliding windows of the duration, advancing 5 minutes from each free interval's start", (t) => {
  const day = span("2026-03-01T19:00:00Z", "2026-03-02T19:00:00Z");
  const slots = slotsOf(schedule(), day, 30);
  // 09:00–13:00 gives (240 − 30) / 5 + 1 = 43 windows; 14:00–18:00 the same.
  t.is(slots.length, 86);
  t.is(isoInZone(slots[0]!.start, ALMATY), "2026-03-02T09:00:00+05:00");
  t.is(isoInZone(slots[1]!.start, ALMATY), "2026-03-02T09:05:00+05:00");
  t.is(isoInZone(slots[42]!.end, ALMATY), "2026-03-02T13:00:00+05:00");
  t.is(isoInZone(slots[43]!.start, ALMATY), "2026-03-02T14:00:00+05:00");
  t.is(isoInZone(slots.at(-1)!.end, ALMATY), "2026-03-02T18:00:00+05:00");
});

test("slots are clipped to the requested range", (t) => {
  const slots = slotsOf(schedule(), span("2026-03-02T06:00:00Z", "2026-03-02T07:00:00Z"), 30);
  t.deepEqual(
    slots.map((s) => isoInZone(s.start, ALMATY)),
    ["11:00", "11:05", "11:10", "11:15", "11:20", "11:25", "11:30"].map((time) => `2026-03-02T${time}:00+05:00`),
  );
});

test("booking checks run in the fork's order and the first failure wins", (t) => {
  const s = schedule({
    holidays: [{ date: "2026-03-09", recurring_yearly: false, working_day_override: false }],
    timeOffs: [span("2026-03-03T04:00:00Z", "2026-03-03T06:00:00Z")],
    appointments: [
      { id: 1, status: "scheduled", ...span("2026-03-02T05:00:00Z", "2026-03-02T05:30:00Z") },
      { id: 2, status: "cancelled", ...span("2026-03-02T06:00:00Z", "2026-03-02T06:30:00Z") },
      { id: 3, status: "no_show", ...span("2026-03-02T07:00:00Z", "2026-03-02T07:30:00Z") },
    ],
  });
  t.is(verdict(s, "2026-03-02T05:00:00Z", "2026-03-02T05:00:00Z"), "VALIDATION_ERROR");
  t.is(verdict(s, "2026-03-02T18:30:00Z", "2026-03-02T19:30:00Z"), "OUTSIDE_WORKING_HOURS", "crosses local midnight");
  t.is(verdict(s, "2026-03-09T05:00:00Z", "2026-03-09T05:30:00Z"), "BLOCKED_BY_HOLIDAY");
  t.is(verdict(s, "2026-03-01T05:00:00Z", "2026-03-01T05:30:00Z"), "OUTSIDE_WORKING_HOURS", "no rules on Sunday");
  t.is(verdict(s, "2026-03-02T03:30:00Z", "2026-03-02T04:30:00Z"), "OUTSIDE_WORKING_HOURS", "starts before 09:00");
  t.is(verdict(s, "2026-03-02T07:45:00Z", "2026-03-02T08:15:00Z"), "BLOCKED_BY_BREAK");
  t.is(verdict(s, "2026-03-03T05:00:00Z", "2026-03-03T05:30:00Z"), "BLOCKED_BY_VACATION");
  t.is(verdict(s, "2026-03-02T05:15:00Z", "2026-03-02T05:45:00Z"), "SLOT_CONFLICT");
  t.is(verdict(s, "2026-03-02T07:00:00Z", "2026-03-02T07:30:00Z"), "SLOT_CONFLICT", "no_show still blocks");
  t.is(verdict(s, "2026-03-02T05:15:00Z", "2026-03-02T05:45:00Z", 1), "OK", "an appointment does not conflict with itself");
  t.is(verdict(s, "2026-03-02T06:00:00Z", "2026-03-02T06:30:00Z"), "OK", "cancelled appointments never block");
  t.is(verdict(s, "2026-03-02T05:30:00Z", "2026-03-02T06:00:00Z"), "OK", "back to back is allowed");
});

test("adjacent work rules are not merged: a booking must fit inside one", (t) => {
  const s = schedule({ workRules: weekdays([1], 9 * 60, 13 * 60).concat(weekdays([1], 13 * 60, 18 * 60)), breakRules: [] });
  t.is(verdict(s, "2026-03-02T07:30:00Z", "2026-03-02T08:30:00Z"), "OUTSIDE_WORKING_HOURS");
  const slots = slotsOf(s, span("2026-03-02T00:00:00Z", "2026-03-02T19:00:00Z"), 60);
  t.false(slots.some((slot) => slot.start < at("2026-03-02T08:00:00Z") && slot.end > at("2026-03-02T08:00:00Z")));
});

test("recurring holidays match every year; one-off holidays only their date", (t) => {
  const s = schedule({
    holidays: [
      { date: "2020-03-02", recurring_yearly: true, working_day_override: false },
      { date: "2020-03-03", recurring_yearly: false, working_day_override: false },
    ],
  });
  t.is(verdict(s, "2026-03-02T05:00:00Z", "2026-03-02T05:30:00Z"), "BLOCKED_BY_HOLIDAY");
  t.is(verdict(s, "2026-03-03T05:00:00Z", "2026-03-03T05:30:00Z"), "OK");
  t.deepEqual(freeIntervals(s, "2026-03-02"), []);
});

test("a working-day holiday and a workday override both lift the holiday block", (t) => {
  const holiday = { date: "2026-03-02", recurring_yearly: false, working_day_override: false };
  const worked = schedule({ holidays: [holiday, { ...holiday, working_day_override: true }] });
  t.is(verdict(worked, "2026-03-02T05:00:00Z", "2026-03-02T05:30:00Z"), "OK", "scheduled from the weekly rules");

  const overridden = schedule({
    holidays: [holiday],
    overrides: [{ date: "2026-03-02", start_minute: 10 * 60, end_minute: 12 * 60, break_start_minute: 11 * 60, break_end_minute: 11 * 60 + 15 }],
  });
  t.deepEqual(freeIntervals(overridden, "2026-03-02"), [
    span("2026-03-02T05:00:00Z", "2026-03-02T06:00:00Z"),
    span("2026-03-02T06:15:00Z", "2026-03-02T07:00:00Z"),
  ]);
  // The override replaces the weekly break too: 13:00 is simply outside its hours.
  t.is(verdict(overridden, "2026-03-02T08:00:00Z", "2026-03-02T08:30:00Z"), "OUTSIDE_WORKING_HOURS");
  t.is(verdict(overridden, "2026-03-02T06:00:00Z", "2026-03-02T06:30:00Z"), "BLOCKED_BY_BREAK");
});

test("Europe/Berlin: the spring-forward day is 23 hours and wall-clock rules follow the offset change", (t) => {
  // 2026-03-29 is a Sunday; clocks go 02:00 CET → 03:00 CEST.
  const s = schedule({ timezone: BERLIN, workRules: weekdays([0], 0, 1440), breakRules: weekdays([0], 1 * 60, 4 * 60) });
  const free = freeIntervals(s, "2026-03-29");
  t.deepEqual(free, [span("2026-03-28T23:00:00Z", "2026-03-29T00:00:00Z"), span("2026-03-29T02:00:00Z", "2026-03-29T22:00:00Z")]);
  const total = free.reduce((sum, i) => sum + (i.end - i.start), 0) + 2 * 3600_000;
  t.is(total, 23 * 3600_000);
  t.is(isoInZone(free[1]!.start, BERLIN), "2026-03-29T04:00:00+02:00");
  t.is(isoInZone(instantOf("2026-03-29", 2 * 60 + 30, BERLIN), BERLIN), "2026-03-29T03:30:00+02:00", "a skipped time moves forward");

  const slots = slotsOf(s, span("2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"), 60);
  t.is(isoInZone(slots[0]!.start, BERLIN), "2026-03-29T00:00:00+01:00");
  t.true(slots.every((slot) => checkBooking(s, slot).bookable));
});

test("Europe/Berlin: the fall-back day is 25 hours and an ambiguous time resolves to its first occurrence", (t) => {
  const s = schedule({ timezone: BERLIN, workRules: weekdays([0], 0, 1440), breakRules: [] });
  const [day] = freeIntervals(s, "2026-10-25");
  t.is(day!.end - day!.start, 25 * 3600_000);
  t.is(isoInZone(instantOf("2026-10-25", 2 * 60 + 30, BERLIN), BERLIN), "2026-10-25T02:30:00+02:00");
  const slots = slotsOf(s, day!, 60);
  t.is(isoInZone(slots.at(-1)!.end, BERLIN), "2026-10-26T00:00:00+01:00");
  t.is(verdict(s, "2026-10-25T22:30:00Z", "2026-10-25T23:30:00Z"), "OUTSIDE_WORKING_HOURS", "reaches into Monday");
});

test("Asia/Almaty has no DST: every day is 24 hours at +05:00", (t) => {
  const s = schedule({ workRules: weekdays([0, 1, 2, 3, 4, 5, 6], 0, 1440), breakRules: [] });
  for (const date of ["2026-03-29", "2026-10-25", "2026-06-21"]) {
    const [day] = freeIntervals(s, date);
    t.is(day!.end - day!.start, 24 * 3600_000);
    t.is(isoInZone(day!.start, ALMATY), `${date}T00:00:00+05:00`);
  }
});

// ---- property-style: the calendar and the booking check never disagree

function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

function randomSchedule(random: () => number, timezone: string): ResourceSchedule {
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const minuteRule = (weekday: number) => {
    const start = int(0, 280) * 5;
    return { weekday, start_minute: start, end_minute: Math.min(1440, start + int(5, 600)), active: random() > 0.1 };
  };
  const dayStart = at("2026-03-23T00:00:00Z");
  const instant = () => dayStart + int(0, 14 * 24 * 60) * 60_000;
  const interval = () => {
    const start = instant();
    return { start, end: start + int(5, 600) * 60_000 };
  };
  return {
    timezone,
    workRules: Array.from({ length: int(3, 12) }, () => minuteRule(int(0, 6))),
    breakRules: Array.from({ length: int(0, 6) }, () => minuteRule(int(0, 6))),
    holidays: Array.from({ length: int(0, 2) }, () => ({
      date: `2026-03-${String(int(23, 31))}`,
      recurring_yearly: random() > 0.5,
      working_day_override: random() > 0.7,
    })),
    overrides: Array.from({ length: int(0, 2) }, () => {
      const start = int(0, 1000);
      const end = Math.min(1440, start + int(30, 400));
      const hasBreak = random() > 0.5;
      return {
        date: `2026-03-${int(23, 31)}`,
        start_minute: start,
        end_minute: end,
        break_start_minute: hasBreak ? start + 10 : null,
        break_end_minute: hasBreak ? start + 25 : null,
      };
    }),
    timeOffs: Array.from({ length: int(0, 3) }, interval),
    appointments: Array.from({ length: int(0, 8) }, (_, id) => ({ id, status: random() > 0.8 ? "cancelled" : "scheduled", ...interval() })),
  };
}

for (const timezone of [ALMATY, BERLIN]) {
  test(`property (${timezone}): every offered slot is bookable and no refused interval is offered`, (t) => {
    const random = prng(timezone === ALMATY ? 7 : 11);
    const range = span("2026-03-24T00:00:00Z", "2026-04-03T00:00:00Z");
    let refused = 0;
    for (let round = 0; round < 40; round++) {
      const s = randomSchedule(random, timezone);
      const duration = [5, 15, 30, 45, 60][Math.floor(random() * 5)]!;
      const slots = slotsOf(s, range, duration);
      const offered = new Set(slots.map((slot) => `${slot.start}/${slot.end}`));
      for (const slot of slots) {
        const v = checkBooking(s, slot);
        if (!v.bookable) t.fail(`slot ${new Date(slot.start).toISOString()} refused with ${v.code}`);
      }
      for (let probe = 0; probe < 300; probe++) {
        const start = range.start + Math.floor(random() * ((range.end - range.start) / 300_000)) * 300_000;
        const candidate = { start, end: start + duration * 60_000 };
        if (candidate.end > range.end || checkBooking(s, candidate).bookable) continue;
        refused++;
        if (offered.has(`${candidate.start}/${candidate.end}`)) t.fail(`refused interval ${new Date(start).toISOString()} was offered`);
      }
    }
    t.true(refused > 100, "the probes exercised refusals");
  });
}

// ---- formatting: the fast formatter agrees with Intl everywhere, transition days included

function intlIso(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName!.slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

test("isoFormatter matches Intl around DST changes, in either direction of travel, for odd offsets too", (t) => {
  const zones = [ALMATY, BERLIN, "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns", "UTC"];
  // Spring and autumn changes of both hemispheres, minute by minute with odd seconds mixed in.
  const days = ["2026-03-08", "2026-03-29", "2026-04-05", "2026-10-04", "2026-10-25", "2026-11-01"];
  for (const timeZone of zones) {
    const iso = isoFormatter(timeZone);
    const instants = days.flatMap((day) => Array.from({ length: 48 * 12 }, (_, i) => at(`${day}T00:00:00Z`) - 12 * 3600_000 + i * 5 * 60_000 + (i % 7) * 1000));
    for (const ms of [...instants, ...instants.reverse()]) {
      if (iso(ms) !== intlIso(ms, timeZone)) return t.fail(`${timeZone} ${new Date(ms).toISOString()}: ${iso(ms)} ≠ ${intlIso(ms, timeZone)}`);
    }
  }
  t.is(isoFormatter(BERLIN)(at("2026-03-29T01:00:00Z")), "2026-03-29T03:00:00+02:00");
  t.is(isoFormatter(BERLIN)(at("2026-03-29T00:59:59Z")), "2026-03-29T01:59:59+01:00");
  t.is(isoFormatter("America/New_York")(at("2026-11-01T06:30:00Z")), "2026-11-01T01:30:00-05:00", "the repeated hour, second time");
});
