/**
 * Loads what the availability engine needs for some resources over a range, in one query per
 * table, and hands each resource its ResourceSchedule. The calendar and the booking check both use it.
 */
import type { Knex } from "knex";
import { Appointment } from "../models/scheduling/Appointment";
import { Holiday } from "../models/scheduling/Holiday";
import type { Resource } from "../models/scheduling/Resource";
import { TimeOff } from "../models/scheduling/TimeOff";
import { BreakRule, WorkRule } from "../models/scheduling/WeeklyRule";
import { WorkdayOverride } from "../models/scheduling/WorkdayOverride";
import { allOn } from "../services/conversationGraph";
import type { ResourceSchedule } from "./availability";
import type { Interval } from "./intervals";
import { addDays } from "./timezone";

export interface ScheduleRows {
  workRules: WorkRule[];
  breakRules: BreakRule[];
  holidays: Holiday[];
  overrides: WorkdayOverride[];
  timeOffs: TimeOff[];
  appointments: Appointment[];
}

/** `db` may be the booking's transaction, so the check sees what the transaction has written. */
export async function loadScheduleRows(accountId: number, resourceIds: readonly number[], range: Interval, db?: Knex): Promise<ScheduleRows> {
  const from = new Date(range.start);
  const to = new Date(range.end);
  // Any zone's local dates in the range lie within a day of the range's UTC dates.
  const firstDate = addDays(from.toISOString().slice(0, 10), -1);
  const lastDate = addDays(to.toISOString().slice(0, 10), 1);
  const [workRules, breakRules, holidays, overrides, timeOffs, appointments] = await allOn(db ?? Appointment.knex(), [
    () => WorkRule.ofResources<WorkRule>(resourceIds, db),
    () => BreakRule.ofResources<BreakRule>(resourceIds, db),
    () => Holiday.ofAccount(accountId, db),
    () => WorkdayOverride.ofAccount(accountId, db).whereIn("resource_id", resourceIds).whereBetween("date", [firstDate, lastDate]),
    () => TimeOff.affecting(accountId, resourceIds, from, to, db),
    () => Appointment.overlapping(accountId, resourceIds, from, to, db),
  ] as const);
  return { workRules, breakRules, holidays, overrides, timeOffs, appointments };
}

const asInterval = (row: { starts_at: Date; ends_at: Date }): Interval => ({ start: row.starts_at.getTime(), end: row.ends_at.getTime() });

/** One resource's share of the loaded rows, in the engine's terms. */
export function scheduleOf(resource: Resource, rows: ScheduleRows): ResourceSchedule {
  return schedulesOf([resource], rows)[0]!;
}

/** Each resource's share of the loaded rows, in the engine's terms: the rows are sorted out once, not once per resource. */
export function schedulesOf(resources: readonly Resource[], rows: ScheduleRows): ResourceSchedule[] {
  const byResource = <T extends { resource_id: number | null }>(items: readonly T[]) => {
    const groups = new Map<number | null, T[]>();
    for (const item of items) {
      const group = groups.get(item.resource_id);
      if (group) group.push(item);
      else groups.set(item.resource_id, [item]);
    }
    return (id: number | null) => groups.get(id) ?? [];
  };
  const workRules = byResource(rows.workRules);
  const breakRules = byResource(rows.breakRules);
  const overrides = byResource(rows.overrides);
  const appointments = byResource(rows.appointments);
  return resources.map((resource) => ({
    timezone: resource.timezone,
    workRules: workRules(resource.id),
    breakRules: breakRules(resource.id),
    holidays: rows.holidays,
    overrides: overrides(resource.id),
    timeOffs: rows.timeOffs.filter((t) => t.resource_id === null || t.resource_id === resource.id).map(asInterval),
    appointments: appointments(resource.id).map((a) => ({ id: a.id, status: a.status, ...asInterval(a) })),
  }));
}
