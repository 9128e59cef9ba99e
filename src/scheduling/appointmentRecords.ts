/**
 * Reading appointments as the API shows them (with their payments and expense), locking one for a
 * read-modify-write, and recording its webhook events in the same transaction as the change.
 */
import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { Appointment, Expense, Payment } from "../models/scheduling/Appointment";
import { currentExpense, presentAppointment } from "../presenters/scheduling/appointments";
import { allOn } from "../services/conversationGraph";
import { type AppointmentEventName, recordEvent } from "../services/events";
import { appointmentNotFound } from "./errors";
import { jsonEqual } from "../lib/jsonEqual";

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
/** `[{attribute: {previous_value, current_value}}]`, as Chatwoot's *_updated events carry them. */
export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>[];

export function changedAttributes(before: Presented, after: Presented): ChangedAttributes {
  return (Object.keys(after) as (keyof Presented)[])
    .filter((key) => !jsonEqual(before[key], after[key]))
    .map((key) => ({ [key]: { previous_value: before[key], current_value: after[key] } }));
}

/**
 * The event a change raises: created for a new booking, cancelled or completed when the status
 * moves there, updated for any other change; nothing when nothing changed. Recorded in the change's
 * transaction, so webhooks and the appointment's workflow hear of exactly the changes that commit.
 */
export async function recordAppointmentChange(
  trx: Knex.Transaction,
  account: Pick<Account, "id" | "name">,
  before: AppointmentView | undefined,
  appointmentId: number,
): Promise<AppointmentView> {
  const after = await findAppointmentView(trx, account.id, appointmentId);
  const current = present(after);
  let name: AppointmentEventName;
  let changed: ChangedAttributes = [];
  if (!before) {
    name = "appointment.created";
  } else {
    changed = changedAttributes(present(before), current);
    if (!changed.length) return after;
    const statusMoved = before.appointment.status !== after.appointment.status;
    name =
      statusMoved && after.appointment.status === "cancelled"
        ? "appointment.cancelled"
        : statusMoved && after.appointment.status === "completed"
          ? "appointment.completed"
          : "appointment.updated";
  }
  await recordEvent(trx, {
    accountId: account.id,
    name,
    payload: { event: name, ...current, ...(before ? { changed_attributes: changed } : {}), account: { id: account.id, name: account.name } },
  });
  return after;
}

const present = (view: AppointmentView) => presentAppointment(view.appointment, view.payments, view.expense);
