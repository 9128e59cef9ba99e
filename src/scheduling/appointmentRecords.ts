/**
 * Reading appointments as the API shows them (with their payments and expense), locking one for a
 * read-modify-write, and recording its webhook events in the same transaction as the change.
 */
import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { Appointment, Expense, Payment } from "../models/scheduling/Appointment";
import { currentExpense, presentAppointment } from "../presenters/scheduling/appointments";
import { allOn } from "../conversations/graph";
import { recordEvent } from "../events/outbox";
import { changeEvents, type ChangedAttributes } from "./appointmentEvents";
import { appointmentNotFound } from "./errors";
import { jsonEqual } from "../lib/jsonEqual";
import { currentRequestId } from "../lib/logger";

export interface AppointmentView {
  appointment: Appointment;
  payments: Payment[];
  expense: Expense | undefined;
}

/** The appointments with their payments and expenses, two queries for all of them. */
export async function loadViews(db: Knex, appointments: Appointment[]): Promise<AppointmentView[]> {
  const ids = appointments.map((a) => a.id);
  const [payments, expenses] = ids.length ? await allOn(db, [() => Payment.ofAppointments(ids, db), () => Expense.ofAppointments(ids, db)] as const) : [[], []];
  return appointments.map((appointment) => ({
    appointment,
    payments: payments.filter((p) => p.appointment_id === appointment.id),
    expense: currentExpense(appointment, expenses),
  }));
}

export async function findAppointmentView(db: Knex, accountId: number, id: number): Promise<AppointmentView> {
  const appointment = await Appointment.ofAccount(accountId, db).findById(id);
  if (!appointment) throw appointmentNotFound();
  return (await loadViews(db, [appointment]))[0]!;
}

/** The appointment, locked until the transaction ends, so changes to it (and its money) apply one after another. */
export async function lockAppointment(trx: Knex.Transaction, accountId: number, id: number): Promise<Appointment> {
  const appointment = await Appointment.ofAccount(accountId, trx).findById(id).forUpdate();
  if (!appointment) throw appointmentNotFound();
  return appointment;
}

type Presented = ReturnType<typeof presentAppointment>;

export function changedAttributes(before: Presented, after: Presented): ChangedAttributes {
  return (Object.keys(after) as (keyof Presented)[])
    .filter((key) => !jsonEqual(before[key], after[key]))
    .map((key) => ({ [key]: { previous_value: before[key], current_value: after[key] } }));
}

/**
 * Records the events a change raises (appointmentEvents.ts), in the change's transaction, so
 * webhooks and the appointment's workflow hear of exactly the changes that commit.
 */
export async function recordAppointmentChange(
  trx: Knex.Transaction,
  account: Pick<Account, "id" | "name">,
  before: AppointmentView | undefined,
  appointmentId: number,
  performedByRuleId?: number,
): Promise<AppointmentView> {
  const after = await findAppointmentView(trx, account.id, appointmentId);
  const current = present(after);
  const previous = before && present(before);
  const events = changeEvents(previous, current, previous ? changedAttributes(previous, current) : []);
  // The workflow's memo names the request that last changed the booking (payments included).
  const requestId = currentRequestId();
  if (events.length && requestId && after.appointment.last_request_id !== requestId) {
    await trx(Appointment.tableName).where("id", appointmentId).update({ last_request_id: requestId });
  }
  await recordEvent(
    trx,
    events.map(({ name, extra }) => ({
      accountId: account.id,
      name,
      payload: { event: name, ...current, ...extra, account: { id: account.id, name: account.name } },
      performedByRuleId,
    })),
  );
  return after;
}

const present = (view: AppointmentView) => presentAppointment(view.appointment, view.payments, view.expense);
