import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";

/**
 * A time as Chatwoot's parse_date_time reads it (Unix seconds, as a number or a string), or an ISO
 * 8601 string; null clears it.
 */
export const timeInput = z
  .union([
    z.number().int().nonnegative(),
    z.string().max(MAX_LENGTH.string).regex(/^\d+$/).transform(Number),
    z.iso
      .datetime({ offset: true })
      .max(MAX_LENGTH.string)
      .transform((value) => Date.parse(value) / 1000),
  ])
  .transform((seconds) => new Date(seconds * 1000))
  // A number too large for a date is refused here rather than failing when the time is written.
  .pipe(z.date({ error: "is not a valid time" }).max(new Date("9999-12-31T23:59:59Z"), { error: "is not a valid time" }))
  .nullable();
