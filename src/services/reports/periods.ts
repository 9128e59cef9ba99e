import type { Knex } from "knex";
import { ValidationError } from "../../errors";
import type { Account } from "../../models/Account";
import { canonicalTimeZone } from "../../scheduling/timezone";
import { type Sql, sql, sqlText } from "../../db/sql";

/** The periods a time series groups by (groupdate's permit list in Chatwoot's builders). */
export const GROUP_BYS = ["day", "week", "month", "year", "hour"] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

/** [since, until): Chatwoot's `since...until`, both Unix seconds. */
export interface Range {
  since: Date;
  until: Date;
}

/** Chatwoot's DateRangeHelper#range: both ends given, or no range at all. */
export function rangeFrom(since: Date | undefined, until: Date | undefined): Range | null {
  return since && until ? { since, until } : null;
}

/** `column` inside the range; anything without a range. */
export function within(column: string, range: Range | null): Sql {
  return range ? sql`${sqlText(column)} >= ${range.since} AND ${sqlText(column)} < ${range.until}` : sqlText("TRUE");
}

/** The zone periods start in: a named IANA zone, or a fixed offset from UTC. */
export type ReportZone = { name: string } | { offsetMinutes: number };

const knownZones = new Map<string, boolean>();

/**
 * The canonical name of an IANA zone that both the process and PostgreSQL know (their tz databases
 * can differ by a release), or undefined. PostgreSQL's list does not change while it runs, so
 * answers are remembered.
 */
export async function postgresZone(knex: Knex, zone: string): Promise<string | undefined> {
  const name = canonicalTimeZone(zone);
  if (!name) return undefined;
  let known = knownZones.get(name);
  if (known === undefined) {
    const result = await knex.raw("SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ?) AS known", [name]);
    known = Boolean(result.rows[0].known);
    knownZones.set(name, known);
  }
  return known ? name : undefined;
}

/**
 * The account's timezone when it has a valid one (custom_attributes.timezone), so that everyone
 * reading the account's reports sees the same days, as Chatwoot does with an account reporting
 * timezone; else the caller's `timezone_offset` in hours, as Chatwoot's dashboard sends it; else UTC.
 * Chatwoot turns an offset into the first Rails zone whose offset is that one today, with its
 * daylight-saving rules; a fixed offset is the deterministic reading of the same number.
 */
export async function reportZone(knex: Knex, account: Account, offsetHours: number | undefined): Promise<ReportZone> {
  const accountZone = account.custom_attributes?.timezone;
  const name = typeof accountZone === "string" ? await postgresZone(knex, accountZone) : undefined;
  if (name) return { name };
  if (offsetHours !== undefined) return { offsetMinutes: Math.round(offsetHours * 60) };
  return { name: "UTC" };
}

function zoneSql(zone: ReportZone): Sql {
  return "name" in zone ? sql`${zone.name}::text` : sql`CAST(${`${zone.offsetMinutes} minutes`} AS interval)`;
}

/** A timestamptz as the wall-clock time of the zone. */
export function localTime(instant: Sql, zone: ReportZone): Sql {
  return sql`(${instant} AT TIME ZONE ${zoneSql(zone)})`;
}

/** A wall-clock time of the zone as the instant it names. */
function instantOf(local: Sql, zone: ReportZone): Sql {
  return sql`(${local} AT TIME ZONE ${zoneSql(zone)})`;
}

/** The wall-clock start of the period holding a wall-clock time; weeks start on Sunday, groupdate's default. */
function truncate(local: Sql, groupBy: GroupBy): Sql {
  if (groupBy === "week") return sql`(date_trunc('day', ${local}) - make_interval(days => extract(dow from ${local})::int))`;
  return sql`date_trunc(${sqlText(`'${groupBy}'`)}, ${local})`;
}

/** The instant the period holding `instant` starts, in the zone. */
export function periodStart(instant: Sql, groupBy: GroupBy, zone: ReportZone): Sql {
  return instantOf(truncate(localTime(instant, zone), groupBy), zone);
}

/** The most periods a series may have, so that decades by the hour cannot tie up the database. */
export const MAX_PERIODS = 10_000;
/** The shortest each period can be, in seconds (a day that loses an hour to daylight saving, February). */
const SHORTEST: Record<GroupBy, number> = { hour: 3600, day: 23 * 3600, week: 167 * 3600, month: 28 * 86400 - 3600, year: 365 * 86400 - 3600 };

/** A series longer than MAX_PERIODS is refused with a 422 rather than built (Chatwoot sets no bound). */
export function assertSeriesFits(range: Range, groupBy: GroupBy): void {
  const periods = Math.ceil((range.until.getTime() - range.since.getTime()) / 1000 / SHORTEST[groupBy]) + 1;
  if (periods > MAX_PERIODS) throw ValidationError.of("group_by", `gives more than ${MAX_PERIODS} periods for this range`);
}

const STEP: Record<GroupBy, string> = { hour: "1 hour", day: "1 day", week: "7 days", month: "1 month", year: "1 year" };

/**
 * Every period that overlaps the range, as rows of `period_start` (timestamptz): groupdate's
 * series, whose empty periods Chatwoot fills with zeros.
 */
export function periodSeries(range: Range, groupBy: GroupBy, zone: ReportZone): Sql {
  const first = truncate(localTime(sql`${range.since}::timestamptz`, zone), groupBy);
  const last = sql`(${localTime(sql`${range.until}::timestamptz`, zone)} - interval '1 microsecond')`;
  return sql`SELECT ${instantOf(sqlText("g"), zone)} AS period_start FROM generate_series(${first}, ${last}, ${sqlText(`interval '${STEP[groupBy]}'`)}) AS g`;
}
