import { Batch as Trip } from "../db/batch";
import { Resource } from "../models/scheduling/Resource";
import { type ShownAppointment, type ShownMoney, shownAppointments, shownPaymentsAndExpenses } from "./calendarRows";
import { Service } from "../models/scheduling/Service";
import type { CALENDAR_VIEWS } from "./constants";
import { resourcesOffering } from "./placement";
import { notFound } from "./errors";
import { queueScheduleRules, type ScheduleRules } from "./schedules";
import { type ResourceSlots, type SlotQuery, slotsOfResources } from "./slots";

export interface CalendarQuery extends SlotQuery {
  view: (typeof CALENDAR_VIEWS)[number];
  resourceIds?: number[];
  includeSlots: boolean;
  /** Only the resources that offer this service (placement.ts's rule). */
  serviceId?: number;
  /** The account's scheduling timezone, in which the range is echoed (the default zone when absent). */
  timeZone?: string;
}

export type { ResourceSlots };

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
