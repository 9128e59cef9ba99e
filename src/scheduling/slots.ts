/**
 * The one slot computation: the free slots of some resources over a range, from their loaded rules
 * and bookings. The calendar's `include_slots` and the availability search both come here, so they
 * offer the same slots, and each is an interval the booking check accepts.
 */
import { Resource } from "../models/scheduling/Resource";
import { Service } from "../models/scheduling/Service";
import { LocalDays, slotStarts, slotsKey } from "./availability";
import { SLOT_STEP_MINUTES } from "./constants";
import { notFound } from "./errors";
import type { Interval } from "./intervals";
import { resourcesOffering } from "./placement";
import { type ResourceBooking, type ResourceIdsQuery, type ScheduleRules, schedulesOf } from "./schedules";

/** Whose slots are asked for: the resources listed (all when absent), only those offering the service when there is one. */
export interface SlotScopeQuery {
  serviceId?: number;
  resourceIds?: readonly number[];
}

export interface SlotScope {
  service?: Service;
  /** A fresh query of the selected resources (of their ids after a select("id")). */
  selected: () => ResourceIdsQuery;
}

/** The service and the resources a slot search is about; 404 for a service or a listed resource that is not the account's. */
export async function slotScope(accountId: number, query: SlotScopeQuery): Promise<SlotScope> {
  const db = Resource.knex();
  const { serviceId, resourceIds } = query;
  const [service, known] = await Promise.all([
    serviceId ? Service.query(db).findOne({ account_id: accountId, id: serviceId }) : undefined,
    resourceIds?.length ? Resource.ofAccount(accountId).whereIn("id", resourceIds).resultSize() : undefined,
  ]);
  if (serviceId && !service) throw notFound("Service");
  if (known !== undefined && known !== new Set(resourceIds).size) throw notFound("Resource");
  const selected = () => {
    const resources = resourceIds ? Resource.ofAccount(accountId).whereIn("id", resourceIds) : Resource.ofAccount(accountId);
    return service ? resources.whereIn("id", resourcesOffering(db, service.id)) : resources;
  };
  return { service, selected };
}

export interface SlotQuery {
  range: Interval;
  /** Slot length; the service's duration, else each resource's own slot_duration_min, when absent. */
  durationMin?: number;
  /** No slot starts before this instant (now plus the account's minimum notice). */
  notBefore?: number;
}

/** One resource's bookable slots, in order: each starts at one of `starts` and lasts `durationMs`. */
export interface ResourceSlots {
  resource: Resource;
  starts: number[];
  durationMs: number;
}

/**
 * Each resource's slots. Resources in one zone share its local days, so each day is worked out once,
 * and resources whose schedules are alike (a clinic's staff on one timetable) share one computation.
 * An inactive resource offers none.
 */
export function slotsOfResources(
  resources: readonly Resource[],
  rules: ScheduleRules,
  bookings: readonly ResourceBooking[],
  query: SlotQuery,
  serviceDurationMin?: number,
): ResourceSlots[] {
  const zones = new Map<string, LocalDays>();
  const computed = new Map<string, number[]>();
  // Slots start on the step's grid, so the first one after the notice is a round time, not "now".
  const step = SLOT_STEP_MINUTES * 60_000;
  const range = { start: Math.max(query.range.start, Math.ceil((query.notBefore ?? -Infinity) / step) * step), end: query.range.end };
  return schedulesOf(resources, rules, bookings).map((schedule, i) => {
    const resource = resources[i]!;
    let days = zones.get(resource.timezone);
    if (!days) zones.set(resource.timezone, (days = new LocalDays(resource.timezone)));
    const durationMin = query.durationMin ?? serviceDurationMin ?? resource.slot_duration_min;
    if (!resource.active || range.end <= range.start) return { resource, starts: [], durationMs: durationMin * 60_000 };
    const key = slotsKey(schedule, durationMin);
    let starts = computed.get(key);
    if (!starts) computed.set(key, (starts = slotStarts(schedule, range, durationMin, days)));
    return { resource, starts, durationMs: durationMin * 60_000 };
  });
}
