import type { Knex } from "knex";
import { Inbox, type WorkingHour } from "../../models/Inbox";
import { postgresZone } from "./periods";
import { type Sql, sql } from "../../db/sql";

interface OpenHours {
  dow: number;
  opens: string;
  closes: string;
}

/** "9:5" → "09:05", an interval PostgreSQL reads. */
const clock = (hour: number, minutes: number) => `${String(hour).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;

/**
 * Chatwoot's inbox_working_hours: the open hours of each day that is not closed; a day open all
 * day is 0:00–23:59, as Chatwoot stores it.
 */
function openHours(workingHours: WorkingHour[]): OpenHours[] {
  return workingHours.flatMap((day) => {
    if (day.closed_all_day) return [];
    if (day.open_all_day) return [{ dow: day.day_of_week, opens: "00:00", closes: "23:59" }];
    if (day.open_hour === null || day.close_hour === null) return [];
    return [{ dow: day.day_of_week, opens: clock(day.open_hour, day.open_minutes ?? 0), closes: clock(day.close_hour, day.close_minutes ?? 0) }];
  });
}

/**
 * The account's business calendar as a CTE body: one row per inbox with working hours enabled
 * (inbox_id, tz, hours). Inboxes without working hours count no business time, as in Chatwoot.
 */
export async function businessCalendar(knex: Knex, accountId: number): Promise<Sql> {
  const inboxes = await Inbox.query(knex).where({ account_id: accountId, working_hours_enabled: true });
  const calendar = await Promise.all(
    inboxes.map(async (inbox) => ({ inbox_id: inbox.id, tz: (await postgresZone(knex, inbox.timezone)) ?? "UTC", hours: openHours(inbox.working_hours) })),
  );
  return sql`SELECT * FROM jsonb_to_recordset(${JSON.stringify(calendar)}::jsonb) AS cal(inbox_id bigint, tz text, hours jsonb)`;
}

/**
 * Seconds of [from, to] inside the inbox's open hours in the inbox's timezone: Chatwoot's
 * value_in_business_hours (BusinessTime's business_time_until). Reads the CTE `business_calendar`.
 */
export function businessSeconds(inboxId: Sql, from: Sql, to: Sql): Sql {
  const open = sql`((d.day + w.opens) AT TIME ZONE cal.tz)`;
  const close = sql`((d.day + w.closes) AT TIME ZONE cal.tz)`;
  return sql`(SELECT coalesce(sum(greatest(0, extract(epoch from least(${to}, ${close}) - greatest(${from}, ${open})))), 0)::float8
    FROM business_calendar cal
    CROSS JOIN LATERAL generate_series(date_trunc('day', ${from} AT TIME ZONE cal.tz), date_trunc('day', ${to} AT TIME ZONE cal.tz), interval '1 day') AS d(day)
    JOIN LATERAL jsonb_to_recordset(cal.hours) AS w(dow int, opens interval, closes interval) ON w.dow = extract(dow from d.day)
    WHERE cal.inbox_id = ${inboxId})`;
}
