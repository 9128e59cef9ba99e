import { Trip } from "../db/trip";
import { Resource } from "../models/scheduling/Resource";
import { LocalDays, slotStarts, slotsKey } from "./availability";
import { type ShownAppointment, type ShownMoney, shownAppointments, shownPaymentsAndExpenses } from "./calendarRows";
import type { CALENDAR_VIEWS } from "./constants";
import { notFound } from "./errors";
import type { Interval } from "./intervals";
import { queueScheduleRules, type ScheduleRules, schedulesOf } from "./schedules";

export interface CalendarQuery {
  view: (typeof CALENDAR_VIEWS)[number];
  range: Interval;
  resourceIds?: number[];
  includeSlots: boolean;
  /** Slot length; each resource's own slot_duration_min when absent. */
  durationMin?: number;
}

/** One resource's bookable slots, in order: each starts at one of `starts` and lasts `durationMs`. */
export interface ResourceSlots {
  resource: Resource;
  starts: number[];
  durationMs: number;
}

export interface Calendar extends ScheduleRules {
  query: CalendarQuery;
  resources: Resource[];
  appointments: ShownAppointment[];
  payments: ShownMoney[];
  expenses: ShownMoney[];
  slots: ResourceSlots[];
}

/**
 * Everything a calendar view draws for a range, and (on request) the free slots of every selected
 * resource: the fork's calendar does not skip inactive ones, it lists and slots them alike.
 */
export async function buildCalendar(accountId: number, query: CalendarQuery): Promise<Calendar> {
  const selected = () => (query.resourceIds ? Resource.ofAccount(accountId).whereIn("id", query.resourceIds) : Resource.ofAccount(accountId));
  const db = Resource.knex();
  // The resources and their rules in one round trip, their appointments beside it.
  const trip = new Trip(db);
  const [resources, rules, appointments] = await Promise.all([
    trip.models(selected().orderBy("id")),
    queueScheduleRules(trip, accountId, selected().select("id"), query.range),
    shownAppointments(db, accountId, selected().select("id"), query.range),
    trip.run(),
  ]);
  if (query.resourceIds && resources.length !== new Set(query.resourceIds).size) throw notFound("Resource");
  const [payments, expenses] = appointments.length
    ? await shownPaymentsAndExpenses(
        db,
        appointments.map((a) => a.id),
      )
    : [[], []];

  const slots = query.includeSlots ? slotsOfResources(resources, rules, appointments, query) : [];
  return { ...rules, query, resources, appointments, payments, expenses, slots };
}

/**
 * Each resource's slots. Resources in one zone share its local days, so each day is worked out once,
 * and resources whose schedules are alike (a clinic's staff on one timetable) share one computation.
 */
function slotsOfResources(resources: Resource[], rules: ScheduleRules, appointments: readonly ShownAppointment[], query: CalendarQuery): ResourceSlots[] {
  const zones = new Map<string, LocalDays>();
  const computed = new Map<string, number[]>();
  return schedulesOf(resources, rules, appointments).map((schedule, i) => {
    const resource = resources[i]!;
    let days = zones.get(resource.timezone);
    if (!days) zones.set(resource.timezone, (days = new LocalDays(resource.timezone)));
    const durationMin = query.durationMin ?? resource.slot_duration_min;
    const key = slotsKey(schedule, durationMin);
    let starts = computed.get(key);
    if (!starts) computed.set(key, (starts = slotStarts(schedule, query.range, durationMin, days)));
    return { resource, starts, durationMs: durationMin * 60_000 };
  });
}
