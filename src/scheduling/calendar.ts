import { Trip } from "../db/trip";
import { Resource } from "../models/scheduling/Resource";
import { LocalDays, slotStarts, slotsKey } from "./availability";
import { type ShownAppointment, type ShownMoney, shownAppointments, shownPaymentsAndExpenses } from "./calendarRows";
import { Service } from "../models/scheduling/Service";
import { type CALENDAR_VIEWS, SLOT_STEP_MINUTES } from "./constants";
import { resourcesOffering } from "./placement";
import { notFound } from "./errors";
import type { Interval } from "./intervals";
import { queueScheduleRules, type ScheduleRules, schedulesOf } from "./schedules";

export interface CalendarQuery {
  view: (typeof CALENDAR_VIEWS)[number];
  range: Interval;
  resourceIds?: number[];
  includeSlots: boolean;
  /** Slot length; the service's duration, else each resource's own slot_duration_min, when absent. */
  durationMin?: number;
  /** Only the resources that offer this service (placement.ts's rule). */
  serviceId?: number;
  /** No slot starts before this instant (now plus the account's minimum notice). */
  notBefore?: number;
  /** The account's scheduling timezone, in which the range is echoed (the default zone when absent). */
  timeZone?: string;
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
 * resource from the minimum notice on. Inactive resources are listed (their bookings stay in view)
 * but offer no slots; with a service, only the resources offering it are selected.
 */
export async function buildCalendar(accountId: number, query: CalendarQuery): Promise<Calendar> {
  const db = Resource.knex();
  const service = query.serviceId ? await Service.query(db).findOne({ account_id: accountId, id: query.serviceId }) : undefined;
  if (query.serviceId && !service) throw notFound("Service");
  const selected = () => {
    const resources = query.resourceIds ? Resource.ofAccount(accountId).whereIn("id", query.resourceIds) : Resource.ofAccount(accountId);
    return query.serviceId ? resources.whereIn("id", resourcesOffering(db, query.serviceId)) : resources;
  };
  // The resources and their rules in one round trip, their appointments beside it.
  const trip = new Trip(db);
  const [resources, rules, appointments] = await Promise.all([
    trip.models(selected().orderBy("id")),
    queueScheduleRules(trip, accountId, selected().select("id"), query.range),
    shownAppointments(db, accountId, selected().select("id"), query.range),
    trip.run(),
  ]);
  if (query.resourceIds && !query.serviceId && resources.length !== new Set(query.resourceIds).size) throw notFound("Resource");
  if (
    query.resourceIds &&
    query.serviceId &&
    (await Resource.ofAccount(accountId).whereIn("id", query.resourceIds).resultSize()) !== new Set(query.resourceIds).size
  )
    throw notFound("Resource");
  const [payments, expenses] = appointments.length
    ? await shownPaymentsAndExpenses(
        db,
        appointments.map((a) => a.id),
      )
    : [[], []];

  const slots = query.includeSlots ? slotsOfResources(resources, rules, appointments, query, service?.duration_min) : [];
  return { ...rules, query, resources, appointments, payments, expenses, slots };
}

/**
 * Each resource's slots. Resources in one zone share its local days, so each day is worked out once,
 * and resources whose schedules are alike (a clinic's staff on one timetable) share one computation.
 */
function slotsOfResources(
  resources: Resource[],
  rules: ScheduleRules,
  appointments: readonly ShownAppointment[],
  query: CalendarQuery,
  serviceDurationMin: number | undefined,
): ResourceSlots[] {
  const zones = new Map<string, LocalDays>();
  const computed = new Map<string, number[]>();
  // Slots start on the step's grid, so the first one after the notice is a round time, not "now".
  const step = SLOT_STEP_MINUTES * 60_000;
  const range = { start: Math.max(query.range.start, Math.ceil((query.notBefore ?? -Infinity) / step) * step), end: query.range.end };
  return schedulesOf(resources, rules, appointments).map((schedule, i) => {
    const resource = resources[i]!;
    let days = zones.get(resource.timezone);
    if (!days) zones.set(resource.timezone, (days = new LocalDays(resource.timezone)));
    const durationMin = query.durationMin ?? serviceDurationMin ?? resource.slot_duration_min;
    // An inactive resource is listed for the bookings it has, but offers nothing new.
    if (!resource.active || range.end <= range.start) return { resource, starts: [], durationMs: durationMin * 60_000 };
    const key = slotsKey(schedule, durationMin);
    let starts = computed.get(key);
    if (!starts) computed.set(key, (starts = slotStarts(schedule, range, durationMin, days)));
    return { resource, starts, durationMs: durationMin * 60_000 };
  });
}
