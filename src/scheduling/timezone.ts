/**
 * The time-zone questions of the scheduling code (local dates, wall-clock minutes as instants,
 * instants as ISO 8601 with their zone's offset), answered by Luxon from the platform's tz data.
 */
import { DateTime, FixedOffsetZone, IANAZone } from "luxon";
import { parseTimeInput, resolveTime } from "./wallTime";

/** A calendar date, "YYYY-MM-DD". */
export type LocalDate = string;

/**
 * The canonical IANA name of a zone ("asia/almaty" → "Asia/Almaty"), or undefined when the name is
 * unknown. Offsets such as "+05:00" are refused: rules need a zone that knows its DST changes.
 */
export function canonicalTimeZone(timeZone: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone) || !IANAZone.isValidZone(timeZone)) return undefined;
  return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
}

/** An IANA zone even for "UTC", which Luxon would otherwise treat as a fixed offset (and write as "Z"). */
const zoneOf = (timeZone: string) => IANAZone.create(timeZone);

/**
 * Answers of one zone kept for reuse: a month's slots are thousands of instants on a few hundred
 * distinct times, and a Luxon lookup costs far more than a map's. Bounded: emptied when full.
 */
class ZoneMemo<K, V> {
  private readonly zones = new Map<string, Map<K, V>>();

  constructor(private readonly compute: (key: K, timeZone: string) => V) {}

  get(key: K, timeZone: string): V {
    let values = this.zones.get(timeZone);
    if (!values) this.zones.set(timeZone, (values = new Map()));
    let value = values.get(key);
    if (value === undefined) {
      if (values.size >= MAX_MEMO_ENTRIES) values.clear();
      values.set(key, (value = this.compute(key, timeZone)));
    }
    return value;
  }
}

const MAX_MEMO_ENTRIES = 50_000;

/** The local calendar date of an instant. */
export const localDateOf = (ms: number, timeZone: string): LocalDate => DateTime.fromMillis(ms, { zone: zoneOf(timeZone) }).toISODate()!;

/*
 * Arithmetic on dates alone, in which no zone takes part: a date's UTC midnight as a JavaScript
 * time value (Date.parse reads "YYYY-MM-DD" as UTC). A month view asks it of every day, and Luxon's
 * parsing of each date costs far more than this.
 */
const DAY_MS = 86_400_000;

/** 0 = Sunday … 6 = Saturday, as Ruby's Date#wday. */
export const weekdayOf = (date: LocalDate): number => new Date(Date.parse(date)).getUTCDay();

export const addDays = (date: LocalDate, days: number): LocalDate =>
  DateTime.fromMillis(Date.parse(date) + days * DAY_MS, { zone: FixedOffsetZone.utcInstance }).toISODate()!;

/** "MM-DD" of a date, for yearly recurring holidays. */
export const monthDay = (date: LocalDate) => date.slice(5);

const instants = new ZoneMemo<string, number>((dayMinute, timeZone) => {
  const [date, minute] = dayMinute.split(" ") as [LocalDate, string];
  const midnight = DateTime.fromISO(date, { zone: zoneOf(timeZone) });
  const wall = Number(minute);
  // From the day's own midnight, so an ambiguous time takes the offset the day starts with.
  const instant = wall >= 24 * 60 ? midnight.plus({ days: 1 }) : midnight.set({ hour: Math.floor(wall / 60), minute: wall % 60 });
  return instant.toMillis();
});

/**
 * The instant of a wall-clock minute of a local date (minute 1440 is the next midnight).
 * As ActiveSupport's zone.local: a time skipped by a spring-forward change moves forward by the
 * gap (02:30 → 03:30), and a time repeated in autumn resolves to its first, daylight-time occurrence.
 */
export const instantOf = (date: LocalDate, minute: number, timeZone: string): number => instants.get(`${date} ${minute}`, timeZone);

const isoTexts = new ZoneMemo<number, string>((ms, timeZone) =>
  DateTime.fromMillis(ms, { zone: zoneOf(timeZone) })
    .startOf("second")
    .toISO({ suppressMilliseconds: true })!,
);

/** ISO 8601 with the zone's offset at that instant, to the second: "2026-03-02T09:00:00+05:00". */
export const isoInZone = (ms: number, timeZone: string): string => isoTexts.get(ms, timeZone);

/** isoInZone of one zone. */
export const isoFormatter =
  (timeZone: string) =>
  (ms: number): string =>
    isoInZone(ms, timeZone);

/**
 * Parses an ISO 8601 date or date-time as Rails' Time.zone.parse would with `timeZone` as the zone:
 * values without an offset (including bare dates) are wall-clock times there. Undefined when invalid.
 */
export function parseInstant(value: string, timeZone: string): number | undefined {
  const time = parseTimeInput(value);
  return time && resolveTime(time, timeZone).getTime();
}
