/**
 * The availability search: the earliest free slots for a service (or a length) across resources.
 * It selects the resources and loads their rules as the calendar does (slots.ts, schedules.ts), with
 * only the columns of their bookings that the slots depend on, and computes the slots the calendar's
 * way, so it offers exactly what the calendar offers, and a slot it offers can be booked.
 */
import { Appointment } from "../models/scheduling/Appointment";
import type { Resource } from "../models/scheduling/Resource";
import { ServicePrice } from "../models/scheduling/Service";
import type { Interval } from "./intervals";
import { bookingsOf, loadScheduleRules } from "./schedules";
import { slotScope, slotsOfResources } from "./slots";

export interface FreeSlotsQuery {
  range: Interval;
  /** Only the resources that offer it (an active, positive price), for its duration unless durationMin says. */
  serviceId?: number;
  durationMin?: number;
  /** Among these; every active resource (offering the service) when absent. */
  resourceIds?: readonly number[];
  limit: number;
  /** No slot starts before this instant (now plus the account's minimum notice). */
  notBefore: number;
}

export interface FreeSlot {
  resource: Resource;
  start: number;
  end: number;
  /** The resource's price of the service; null when searching by length alone. */
  price: number | null;
}

/** The first `limit` free slots of the selected resources, earliest first, ties by resource id. */
export async function freeSlots(accountId: number, query: FreeSlotsQuery): Promise<FreeSlot[]> {
  const { service, selected } = await slotScope(accountId, {
    serviceId: query.serviceId,
    resourceIds: query.resourceIds?.length ? query.resourceIds : undefined,
  });
  const resources = await selected().where("active", true).orderBy("id");
  if (resources.length === 0) return [];
  const ids = resources.map((r) => r.id);

  const [rules, appointments, prices] = await Promise.all([
    loadScheduleRules(accountId, ids, query.range),
    Appointment.overlapping(accountId, ids, new Date(query.range.start), new Date(query.range.end)).select(
      "id",
      "resource_id",
      "status",
      "starts_at",
      "ends_at",
    ),
    service ? ServicePrice.query().where({ service_id: service.id, active: true }).whereIn("resource_id", ids) : [],
  ]);
  const priceOf = new Map(prices.map((p) => [p.resource_id, p.price]));

  const slots = slotsOfResources(
    resources,
    rules,
    bookingsOf(appointments),
    { range: query.range, durationMin: query.durationMin, notBefore: query.notBefore },
    service?.duration_min,
  );
  // Each resource's starts are ascending, so no resource contributes more than its first `limit`.
  const candidates = slots.flatMap(({ resource, starts, durationMs }) =>
    starts.slice(0, query.limit).map((start) => ({ resource, start, end: start + durationMs, price: priceOf.get(resource.id) ?? null })),
  );
  candidates.sort((a, b) => a.start - b.start || a.resource.id - b.resource.id);
  return candidates.slice(0, query.limit);
}
