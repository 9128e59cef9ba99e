import { Batch } from "../db/batch";
import { Appointment, Expense, Payment } from "../models/scheduling/Appointment";
import { Resource } from "../models/scheduling/Resource";
import { type CalendarAppointment, queueCalendarAppointments } from "./calendarAppointments";
import type { CALENDAR_VIEWS } from "./constants";
import { bookingsOf, queueScheduleRules, type ScheduleRules } from "./schedules";
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
  const from = new Date(query.range.start);
  const to = new Date(query.range.end);
  // Two round trips side by side, each reading the selection itself: the appointments with their JSON
  // (the long one, PostgreSQL writing it), and the resources, their rules and the appointments' money.
  const ids = () => selected().select("id") as unknown as number[];
  const appointmentsBatch = new Batch(Resource.knex());
  const appointmentsRead = queueCalendarAppointments(appointmentsBatch, accountId, ids(), from, to);
  const batch = new Batch(Resource.knex());
  const resourcesRead = batch.models(selected().orderBy("id"));
  const rulesRead = queueScheduleRules(batch, accountId, ids(), query.range);
  const shown = () => Appointment.overlapping(accountId, ids(), from, to).clearSelect().clearOrder().select("scheduling_appointments.id");
  const paymentsRead = batch.models(Payment.ofAppointments(shown()));
  const expensesRead = batch.models(Expense.ofAppointments(shown()));
  await Promise.all([appointmentsBatch.run(), batch.run()]);
  const [resources, rules, appointments, payments, expenses] = await Promise.all([resourcesRead, rulesRead, appointmentsRead, paymentsRead, expensesRead]);
  // The money is read by the appointments' condition on another connection, not by their ids: one
  // booked between the two reads is not in the body, and so neither is its money.
  const shownIds = new Set(appointments.map((a) => a.id));
  const ofShown = <T extends Payment | Expense>(rows: T[]) => rows.filter((row) => shownIds.has(row.appointment_id));
  const slots = query.includeSlots ? slotsOfResources(resources, rules, bookingsOf(appointments), query, service?.duration_min) : [];
  return { ...rules, query, resources, appointments, payments: ofShown(payments), expenses: ofShown(expenses), slots };
}
