/**
 * The availability search: the earliest free slots for a service (or a length) across resources.
 * It loads only what the slots depend on and hands it to the calendar's slot computation (slots.ts),
 * so it offers exactly what the calendar offers, and a slot it offers can be booked.
 */
import { Appointment } from "../models/scheduling/Appointment";
import { Resource } from "../models/scheduling/Resource";
import { Service, ServicePrice } from "../models/scheduling/Service";
import { notFound } from "./errors";
import type { Interval } from "./intervals";
import { resourcesOffering } from "./placement";
import { loadScheduleRules } from "./schedules";
import { slotsOfResources } from "./slots";

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
  const db = Resource.knex();
  const service = query.serviceId ? await Service.query(db).findOne({ account_id: accountId, id: query.serviceId }) : undefined;
  if (query.serviceId && !service) throw notFound("Service");
  if (query.resourceIds?.length) {
    const known = await Resource.ofAccount(accountId).whereIn("id", query.resourceIds).resultSize();
    if (known !== new Set(query.resourceIds).size) throw notFound("Resource");
  }

  let selected = Resource.ofAccount(accountId).where("active", true);
  if (query.resourceIds?.length) selected = selected.whereIn("id", query.resourceIds);
  if (service) selected = selected.whereIn("id", resourcesOffering(db, service.id));
  const resources = await selected.orderBy("id");
  if (resources.length === 0) return [];
  const ids = resources.map((r) => r.id);

  const from = new Date(query.range.start);
  const to = new Date(query.range.end);
  const [rules, appointments, prices] = await Promise.all([
    loadScheduleRules(accountId, ids, query.range),
    Appointment.overlapping(accountId, ids, from, to).select("id", "resource_id", "status", "starts_at", "ends_at"),
    service ? ServicePrice.query(db).where({ service_id: service.id, active: true }).whereIn("resource_id", ids) : [],
  ]);
  const bookings = appointments.map((a) => ({
    id: a.id,
    resource_id: a.resource_id,
    status: a.status,
    start: a.starts_at.getTime(),
    end: a.ends_at.getTime(),
  }));
  const priceOf = new Map(prices.map((p) => [p.resource_id, p.price]));

  const slots = slotsOfResources(
    resources,
    rules,
    bookings,
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
