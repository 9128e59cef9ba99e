import { Expense, Payment } from "../models/scheduling/Appointment";
import { Resource } from "../models/scheduling/Resource";
import { slotsOf } from "./availability";
import type { CALENDAR_VIEWS } from "./constants";
import { notFound } from "./errors";
import type { Interval } from "./intervals";
import { loadScheduleRows, scheduleOf, type ScheduleRows } from "./schedules";

export interface CalendarQuery {
  view: (typeof CALENDAR_VIEWS)[number];
  range: Interval;
  resourceIds?: number[];
  includeSlots: boolean;
  /** Slot length; each resource's own slot_duration_min when absent. */
  durationMin?: number;
}

/** One resource's bookable slots, in order. */
export interface ResourceSlots {
  resource: Resource;
  slots: Interval[];
}

export interface Calendar extends ScheduleRows {
  query: CalendarQuery;
  resources: Resource[];
  payments: Payment[];
  expenses: Expense[];
  slots: ResourceSlots[];
}

/**
 * Everything a calendar view draws for a range, and (on request) the free slots of every selected
 * resource: the fork's calendar does not skip inactive ones, it lists and slots them alike.
 */
export async function buildCalendar(accountId: number, query: CalendarQuery): Promise<Calendar> {
  const resourceQuery = Resource.ofAccount(accountId).orderBy("id");
  if (query.resourceIds) resourceQuery.whereIn("id", query.resourceIds);
  const resources = await resourceQuery;
  if (query.resourceIds && resources.length !== new Set(query.resourceIds).size) throw notFound("Resource");

  const rows = await loadScheduleRows(accountId, resources.map((r) => r.id), query.range);
  const appointmentIds = rows.appointments.map((a) => a.id);
  const [payments, expenses] = await Promise.all([Payment.ofAppointments(appointmentIds), Expense.ofAppointments(appointmentIds)]);

  const slots = query.includeSlots
    ? resources.map((resource) => ({ resource, slots: slotsOf(scheduleOf(resource, rows), query.range, query.durationMin ?? resource.slot_duration_min) }))
    : [];
  return { ...rows, query, resources, payments, expenses, slots };
}
