import { Expense, Payment } from "../models/scheduling/Appointment";
import type { Resource } from "../models/scheduling/Resource";
import { type CalendarAppointment, calendarAppointments } from "./calendarAppointments";
import type { CALENDAR_VIEWS } from "./constants";
import { bookingsOf, loadScheduleRules, type ScheduleRules } from "./schedules";
import { type ResourceSlots, type SlotQuery, slotScope, slotsOfResources } from "./slots";

export interface CalendarQuery extends SlotQuery {
  view: (typeof CALENDAR_VIEWS)[number];
  resourceIds?: number[];
  includeSlots: boolean;
  /** Only the resources that offer this service (placement.ts's rule). */
  serviceId?: number;
  /** The account's scheduling timezone, in which the range is echoed (the default zone when absent). */
  timeZone?: string;
}

export type { CalendarAppointment, ResourceSlots };

export interface Calendar extends ScheduleRules {
  query: CalendarQuery;
  resources: Resource[];
  appointments: CalendarAppointment[];
  payments: Payment[];
  expenses: Expense[];
  slots: ResourceSlots[];
}

/**
 * Everything a calendar view draws for a range, and (on request) the free slots of every selected
 * resource from the minimum notice on, computed as the availability search computes them (slots.ts).
 * Inactive resources are listed (their bookings stay in view) but offer no slots; with a service,
 * only the resources offering it are selected.
 */
export async function buildCalendar(accountId: number, query: CalendarQuery): Promise<Calendar> {
  const { service, selected } = await slotScope(accountId, query);
  const { start, end } = query.range;
  // The resources, their rules and their appointments side by side, each reading the selection itself.
  const [resources, rules, appointments] = await Promise.all([
    selected().orderBy("id"),
    loadScheduleRules(accountId, selected().select("id"), query.range),
    calendarAppointments(accountId, selected().select("id") as unknown as number[], new Date(start), new Date(end)),
  ]);
  const ids = appointments.map((a) => a.id);
  const [payments, expenses] = ids.length ? await Promise.all([Payment.ofAppointments(ids), Expense.ofAppointments(ids)]) : [[], []];
  const slots = query.includeSlots ? slotsOfResources(resources, rules, bookingsOf(appointments), query, service?.duration_min) : [];
  return { ...rules, query, resources, appointments, payments, expenses, slots };
}
