/**
 * Loads what the availability engine needs for some resources over a range (their rules and their
 * appointments, in one round trip), and hands each resource its ResourceSchedule. The calendar, the
 * availability search and the booking check all use it.
 */
import type { Knex } from "knex";
import { type QueryBuilder, raw } from "objection";
import { Appointment } from "../models/scheduling/Appointment";
import { Holiday } from "../models/scheduling/Holiday";
import type { Resource } from "../models/scheduling/Resource";
import { TimeOff } from "../models/scheduling/TimeOff";
import { BreakRule, WorkRule } from "../models/scheduling/WeeklyRule";
import { WorkdayOverride } from "../models/scheduling/WorkdayOverride";
import { Batch } from "../db/batch";
import type { BookedInterval, ResourceSchedule } from "./availability";
import type { Interval } from "./intervals";

/** What decides the availability of some resources besides their bookings. */
export interface ScheduleRules {
  workRules: WorkRule[];
  breakRules: BreakRule[];
  holidays: Holiday[];
  overrides: WorkdayOverride[];
  timeOffs: TimeOff[];
}

export interface ScheduleRows extends ScheduleRules {
  appointments: Appointment[];
}

/** A booking of one of the resources, in the engine's terms. */
export interface ResourceBooking extends BookedInterval {
  resource_id: number;
}

const asInterval = (row: { starts_at: Date; ends_at: Date }): Interval => ({ start: row.starts_at.getTime(), end: row.ends_at.getTime() });

/** `db` may be the booking's transaction, so the check sees what the transaction has written. */
export async function loadScheduleRows(accountId: number, resourceIds: readonly number[], range: Interval, db?: Knex): Promise<ScheduleRows> {
  const batch = new Batch(db ?? Appointment.knex());
  const rules = queueScheduleRules(batch, accountId, resourceIds, range);
  const appointments = batch.models(Appointment.overlapping(accountId, resourceIds, new Date(range.start), new Date(range.end)));
  await batch.run();
  return { ...(await rules), appointments: await appointments };
}

/** A query of resource ids. */
export type ResourceIdsQuery = QueryBuilder<Resource, Resource[]>;

/** The rules of some resources (as ids, or as a query of their ids), each kind a statement, in one round trip. */
export async function loadScheduleRules(
  accountId: number,
  resources: readonly number[] | ResourceIdsQuery,
  range: Interval,
  db?: Knex,
): Promise<ScheduleRules> {
  const batch = new Batch(db ?? Appointment.knex());
  const rules = queueScheduleRules(batch, accountId, resources, range);
  await batch.run();
  return rules;
}

/**
 * The rules of some resources (as ids, or as a query of their ids, so they are read beside the
 * resources themselves), each kind a statement queued on a batch: they settle once it has run.
 */
export function queueScheduleRules(batch: Batch, accountId: number, resources: readonly number[] | ResourceIdsQuery, range: Interval): Promise<ScheduleRules> {
  // knex writes `in (select ...)` for a query as it writes `in (1, 2)` for ids.
  const ids = (Array.isArray(resources) ? [...resources] : resources) as number[];
  // Any zone's local dates in the range lie within a day of the range's UTC dates.
  const utcDate = (ms: number, days: number) => raw("(?::timestamptz at time zone 'UTC')::date + ?::integer", [new Date(ms), days]);
  const weekly = <R extends WorkRule | BreakRule>(model: typeof WorkRule | typeof BreakRule) =>
    batch.models(model.query().whereIn("resource_id", ids).orderBy(["resource_id", "weekday", "start_minute", "id"])) as Promise<R[]>;
  return Promise.all([
    weekly<WorkRule>(WorkRule),
    weekly<BreakRule>(BreakRule),
    batch.models(Holiday.ofAccount(accountId)),
    batch.models(
      WorkdayOverride.ofAccount(accountId)
        .whereIn("resource_id", ids)
        .whereBetween("date", [utcDate(range.start, -1), utcDate(range.end, 1)]),
    ),
    batch.models(TimeOff.affecting(accountId, ids, new Date(range.start), new Date(range.end))),
  ]).then(([workRules, breakRules, holidays, overrides, timeOffs]) => ({ workRules, breakRules, holidays, overrides, timeOffs }));
}

/** Appointments as the engine's bookings. */
export const bookingsOf = (appointments: readonly Pick<Appointment, "id" | "resource_id" | "status" | "starts_at" | "ends_at">[]): ResourceBooking[] =>
  appointments.map((a) => ({ id: a.id, resource_id: a.resource_id, status: a.status, ...asInterval(a) }));

/** One resource's share of the loaded rows, in the engine's terms. */
export function scheduleOf(resource: Resource, rows: ScheduleRows): ResourceSchedule {
  return schedulesOf([resource], rows, bookingsOf(rows.appointments))[0]!;
}

/** Each resource's share of the loaded rules and bookings, in the engine's terms: the rows are sorted out once, not once per resource. */
export function schedulesOf(resources: readonly Resource[], rules: ScheduleRules, bookings: readonly ResourceBooking[]): ResourceSchedule[] {
  const byResource = <T extends { resource_id: number | null }>(items: readonly T[]) => {
    const groups = new Map<number | null, T[]>();
    for (const item of items) {
      const group = groups.get(item.resource_id);
      if (group) group.push(item);
      else groups.set(item.resource_id, [item]);
    }
    return (id: number | null) => groups.get(id) ?? [];
  };
  const workRules = byResource(rules.workRules);
  const breakRules = byResource(rules.breakRules);
  const overrides = byResource(rules.overrides);
  const appointments = byResource(bookings);
  return resources.map((resource) => ({
    timezone: resource.timezone,
    workRules: workRules(resource.id),
    breakRules: breakRules(resource.id),
    holidays: rules.holidays,
    overrides: overrides(resource.id),
    timeOffs: rules.timeOffs.filter((t) => t.resource_id === null || t.resource_id === resource.id).map(asInterval),
    appointments: appointments(resource.id),
  }));
}
