/**
 * Wall-clock arithmetic in IANA timezones with the platform's Intl data, so daylight-saving
 * changes come from the same tz database as everything else in the process.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A calendar date, "YYYY-MM-DD". */
export type LocalDate = string;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The canonical IANA name of a zone ("asia/almaty" → "Asia/Almaty"), or undefined when the name is
 * unknown. Offsets such as "+05:00" are refused: rules need a zone that knows its DST changes.
 */
export function canonicalTimeZone(timeZone: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone)) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(ms: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** Offset changes happen on quarter hours, so the offset is constant within each quarter-hour bucket. */
const OFFSET_BUCKET_MS = 15 * MINUTE_MS;
const MAX_CACHED_OFFSETS = 100_000;
const offsetsByZone = new Map<string, Map<number, number>>();

/** The zone's offset from UTC at an instant, in minutes (Asia/Almaty: 300). */
export function offsetMinutes(ms: number, timeZone: string): number {
  let offsets = offsetsByZone.get(timeZone);
  if (!offsets) offsetsByZone.set(timeZone, (offsets = new Map()));
  const bucket = Math.floor(ms / OFFSET_BUCKET_MS);
  let offset = offsets.get(bucket);
  if (offset === undefined) {
    const start = bucket * OFFSET_BUCKET_MS;
    const w = wallClock(start, timeZone);
    offset = Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - start) / MINUTE_MS);
    // Every wall-clock conversion and formatted date asks for offsets; Intl is slow, so memoise (bounded).
    if (offsets.size >= MAX_CACHED_OFFSETS) offsets.clear();
    offsets.set(bucket, offset);
  }
  return offset;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The local calendar date of an instant. */
export function localDateOf(ms: number, timeZone: string): LocalDate {
  return new Date(ms + offsetMinutes(ms, timeZone) * MINUTE_MS).toISOString().slice(0, 10);
}

function dateParts(date: LocalDate): [number, number, number] {
  const [y, m, d] = date.split("-").map(Number);
  return [y!, m!, d!];
}

/** 0 = Sunday … 6 = Saturday, as Ruby's Date#wday. */
export function weekdayOf(date: LocalDate): number {
  const [y, m, d] = dateParts(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const [y, m, d] = dateParts(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** "MM-DD" of a date, for yearly recurring holidays. */
export const monthDay = (date: LocalDate) => date.slice(5);

/**
 * The instant of a wall-clock minute of a local date (minute 1440 is the next midnight).
 * As ActiveSupport's zone.local: a time skipped by a spring-forward change moves forward by the
 * gap (02:30 → 03:30), and a time repeated in autumn resolves to its first, daylight-time occurrence.
 */
export function instantOf(date: LocalDate, minute: number, timeZone: string): number {
  const [y, m, d] = dateParts(date);
  const wall = Date.UTC(y, m - 1, d, 0, minute);
  const before = offsetMinutes(wall - 14 * HOUR_MS, timeZone);
  const after = offsetMinutes(wall + 14 * HOUR_MS, timeZone);
  // Offsets change at most once a day: the same offset on both sides means none changes in between.
  if (before === after) return wall - before * MINUTE_MS;
  const matches = [before, after].map((offset) => wall - offset * MINUTE_MS).filter((ms) => wall - offsetMinutes(ms, timeZone) * MINUTE_MS === ms);
  if (matches.length) return Math.min(...matches);
  return wall - before * MINUTE_MS;
}

/** A stretch of time [start, end) over which a zone keeps one offset. */
interface OffsetSpan {
  start: number;
  end: number;
  offset: number;
}

const DAY_MS = 24 * HOUR_MS;

/**
 * The stretch of its UTC day around `ms` over which the zone keeps the offset it has at `ms`.
 * Zones change offset at most once a day, so equal offsets at both ends of the day mean no change
 * in between; otherwise the change is bisected to its quarter hour.
 */
function offsetSpanAt(ms: number, timeZone: string): OffsetSpan {
  const offset = offsetMinutes(ms, timeZone);
  const hasOffset = (bucket: number) => offsetMinutes(bucket * OFFSET_BUCKET_MS, timeZone) === offset;
  /** The bucket nearest `same` (which has the offset) on `other`'s side where the offset is gone. */
  const changeBetween = (same: number, other: number) => {
    while (Math.abs(other - same) > 1) {
      const middle = Math.trunc((same + other) / 2);
      if (hasOffset(middle)) same = middle;
      else other = middle;
    }
    return other;
  };
  const bucket = Math.floor(ms / OFFSET_BUCKET_MS);
  const firstBucket = Math.floor(ms / DAY_MS) * (DAY_MS / OFFSET_BUCKET_MS);
  const lastBucket = firstBucket + DAY_MS / OFFSET_BUCKET_MS - 1;
  const start = hasOffset(firstBucket) ? firstBucket : changeBetween(bucket, firstBucket) + 1;
  const end = hasOffset(lastBucket) ? lastBucket + 1 : changeBetween(bucket, lastBucket);
  return { start: start * OFFSET_BUCKET_MS, end: end * OFFSET_BUCKET_MS, offset };
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => pad(n));
/** "HH:MM:" of every minute of a day. */
const CLOCK = Array.from({ length: 24 * 60 }, (_, minute) => `${TWO_DIGITS[Math.floor(minute / 60)]}:${TWO_DIGITS[minute % 60]}:`);

function offsetSuffix(offset: number): string {
  const abs = Math.abs(offset);
  return `${offset < 0 ? "-" : "+"}${TWO_DIGITS[Math.floor(abs / 60)]}:${TWO_DIGITS[abs % 60]}`;
}

/**
 * What ISO 8601 with a zone's offset needs of successive instants of one zone: it finds the offset
 * once per stretch that keeps it, and the date once per local day, and does the rest with arithmetic.
 * Fastest when consecutive instants are close together, as a day's slots are.
 */
class ZoneCursor {
  private span: OffsetSpan = { start: 0, end: 0, offset: 0 };
  private localDay = NaN;
  /** "+05:00" for the current span. */
  suffix = "";
  /** "2026-03-02T" for the current local day. */
  datePrefix = "";

  constructor(private readonly timeZone: string) {}

  /** Moves to `ms`; answers its second of the local day. */
  moveTo(ms: number): number {
    if (ms < this.span.start || ms >= this.span.end) {
      this.span = offsetSpanAt(ms, this.timeZone);
      this.suffix = offsetSuffix(this.span.offset);
    }
    const local = ms + this.span.offset * MINUTE_MS;
    const day = Math.floor(local / DAY_MS);
    if (day !== this.localDay) {
      this.localDay = day;
      this.datePrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    return Math.floor((local - day * DAY_MS) / 1000);
  }
}

/**
 * A formatter of instants as ISO 8601 with the zone's offset at each instant
 * ("2026-03-02T09:00:00+05:00"), for formatting many instants of one zone.
 */
export function isoFormatter(timeZone: string): (ms: number) => string {
  const cursor = new ZoneCursor(timeZone);
  return (ms) => {
    const second = cursor.moveTo(ms);
    return cursor.datePrefix + CLOCK[Math.floor(second / 60)] + TWO_DIGITS[second % 60] + cursor.suffix;
  };
}

/** Longest text isoWriter writes for one instant (a six-digit year with its sign). */
export const MAX_ISO_BYTES = 28;

const asciiBytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const CLOCK_BYTES = asciiBytes(CLOCK.join(""));
const TWO_DIGIT_BYTES = asciiBytes(TWO_DIGITS.join(""));

/**
 * isoFormatter's text written as ASCII straight into a buffer, for responses with tens of
 * thousands of instants: no string per instant. Writes at `at` (room for MAX_ISO_BYTES) and
 * answers the position after the text.
 */
export function isoWriter(timeZone: string): (ms: number, into: Uint8Array, at: number) => number {
  const cursor = new ZoneCursor(timeZone);
  let datePrefix = "";
  let dateBytes = new Uint8Array(0);
  let suffix = "";
  let suffixBytes = new Uint8Array(0);
  return (ms, into, at) => {
    const second = cursor.moveTo(ms);
    if (cursor.datePrefix !== datePrefix) dateBytes = asciiBytes((datePrefix = cursor.datePrefix));
    if (cursor.suffix !== suffix) suffixBytes = asciiBytes((suffix = cursor.suffix));
    for (let i = 0; i < dateBytes.length; i++) into[at++] = dateBytes[i]!;
    const clock = Math.floor(second / 60) * 6;
    for (let i = 0; i < 6; i++) into[at++] = CLOCK_BYTES[clock + i]!;
    const seconds = (second % 60) * 2;
    into[at++] = TWO_DIGIT_BYTES[seconds]!;
    into[at++] = TWO_DIGIT_BYTES[seconds + 1]!;
    for (let i = 0; i < suffixBytes.length; i++) into[at++] = suffixBytes[i]!;
    return at;
  };
}

/** ISO 8601 with the zone's offset at that instant: "2026-03-02T09:00:00+05:00". */
export const isoInZone = (ms: number, timeZone: string) => isoFormatter(timeZone)(ms);

const INSTANT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses an ISO 8601 date or date-time as Rails' Time.zone.parse would with `timeZone` as the zone:
 * values without an offset (including bare dates) are wall-clock times there. Undefined when invalid.
 */
export function parseInstant(value: string, timeZone: string): number | undefined {
  const match = INSTANT_PATTERN.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = "", zone] = match;
  const date = `${y}-${mo}-${d}`;
  const [year, month, day] = dateParts(date);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Math.round(Number(`0${fraction || ".0"}`) * 1000);
  if (zone) {
    const offset = zone.toUpperCase() === "Z" ? 0 : zoneOffset(zone);
    return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset * MINUTE_MS;
  }
  return instantOf(date, hour * 60 + minute, timeZone) + second * 1000 + millis;
}

function zoneOffset(zone: string): number {
  const digits = zone.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
  return zone.startsWith("-") ? -minutes : minutes;
}
