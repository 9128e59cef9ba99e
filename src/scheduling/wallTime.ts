/**
 * Request times whose zone is decided later: an ISO 8601 value with an offset is an instant at once,
 * one without (a bare date, or "2030-03-04T10:00") is a wall-clock time read in the zone of whatever
 * it is about (the resource's for a booking, the account's for the calendar's range), as Rails'
 * Time.zone.parse would with that zone. The zone arithmetic is Luxon's.
 */
import { DateTime } from "luxon";

/** A wall-clock date-time without an offset; `in` places it in a zone. */
export class WallTime {
  constructor(readonly text: string) {}

  /** The instant this wall-clock time names in the zone; a time skipped by a DST change moves forward by the gap. */
  in(zone: string): Date {
    return DateTime.fromISO(this.text, { zone }).toJSDate();
  }

  toJSON(): string {
    return this.text;
  }
}

/** A time as a request gave it: an instant, or a wall-clock time still to be placed in a zone. */
export type TimeInput = Date | WallTime;

export const resolveTime = (value: TimeInput, zone: string): Date => (value instanceof WallTime ? value.in(zone) : value);

/** Date, then time with at least hours and minutes, then an optional offset; a space may stand for the T. */
const SHAPE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:\s*(Z|[+-]\d{2}(?::?\d{2})?))?$/i;

/** The value as a TimeInput, or undefined when it is not a valid ISO 8601 date or date-time. */
export function parseTimeInput(value: string): TimeInput | undefined {
  const trimmed = value.trim();
  const match = SHAPE.exec(trimmed);
  if (!match) return undefined;
  const iso = trimmed.replace(" ", "T").replace(/\s+(?=[Zz+-]\d*)/, "");
  const parsed = DateTime.fromISO(iso, { zone: "UTC", setZone: true });
  if (!parsed.isValid) return undefined;
  return match[1] ? parsed.toJSDate() : new WallTime(iso);
}
