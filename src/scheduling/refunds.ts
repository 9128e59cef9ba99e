/**
 * Refunds (docs/scheduling-money.md): money given back is an entry of its own in the payment journal
 * (kind `refund`: amount, method, who, when, why), partial or full, never more than was received and
 * not yet given back. Nothing received is erased. Each refund runs under the appointment's row lock,
 * so refunds racing each other take turns, and the database refuses a refunded_amount above what
 * was received whatever happens.
 */
import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { Expense, Payment, type Appointment } from "../models/scheduling/Appointment";
import { findAppointmentView, lockAppointment, recordAppointmentChange, type AppointmentView } from "./appointmentRecords";
import type { PaymentMethod } from "./constants";
import { invalidAttribute, refused } from "./errors";
import { syncFinance } from "./finance";
import { derivePaymentStatus, keptOf } from "./money";

export interface RefundInput {
  /** Defaults to everything received and not yet refunded. */
  amount?: number;
  /** Defaults to the method the money last came in by. */
  payment_method?: PaymentMethod;
  reason?: string | null;
}

const paymentCancelled = (a: Appointment) => a.payment_status === "cancelled" || a.status === "cancelled";

/** Records the refund and re-derives the payment status; the caller holds the appointment's lock. */
async function refundLocked(trx: Knex.Transaction, appointment: Appointment, userId: number | null, input: RefundInput, cancel: boolean): Promise<void> {
  const refundable = keptOf(appointment);
  const amount = input.amount ?? refundable;
  if (refundable > 0) {
    if (amount <= 0) throw refused("Refund amount must be greater than 0");
    if (amount > refundable) throw refused(`Refund amount exceeds what was paid and not yet refunded (${refundable})`);
    const method = input.payment_method ?? appointment.settlement_payment_method ?? appointment.prepaid_payment_method;
    if (!method) throw invalidAttribute("payment_method", "can't be blank");
    await Payment.query(trx).insert({
      account_id: appointment.account_id,
      appointment_id: appointment.id,
      recorded_by_id: userId,
      amount,
      payment_method: method,
      payment_kind: "refund",
      reason: input.reason?.trim() || null,
    });
  } else if (!cancel) {
    throw refused("Nothing left to refund");
  }
  const refunded = appointment.refunded_amount + (refundable > 0 ? amount : 0);
  const updated = await appointment.$query(trx).patchAndFetch({
    refunded_amount: refunded,
    payment_status: derivePaymentStatus({ ...appointment, refunded_amount: refunded }, cancel || paymentCancelled(appointment)),
  });
  await syncFinance(trx, updated, userId);
}

/** POST appointments/:id/refunds: a refund of part or all of what was paid. */
export async function refund(db: Knex, account: Account, userId: number | null, appointmentId: number, input: RefundInput): Promise<AppointmentView> {
  return db.transaction(async (trx) => {
    const appointment = await lockAppointment(trx, account.id, appointmentId);
    const before = await findAppointmentView(trx, account.id, appointment.id);
    await refundLocked(trx, appointment, userId, input, false);
    return recordAppointmentChange(trx, account, before, appointment.id);
  });
}

/**
 * DELETE appointments/:id/payments, the fork's "cancel payment", kept for its clients: a full refund
 * of what is left, recorded as a refund entry instead of erasing the payments, and the payment
 * cancelled. As in the fork it is refused once the resource's expense has been paid out.
 */
export async function cancelPayments(db: Knex, account: Account, userId: number | null, appointmentId: number): Promise<AppointmentView> {
  return db.transaction(async (trx) => {
    const appointment = await lockAppointment(trx, account.id, appointmentId);
    const before = await findAppointmentView(trx, account.id, appointment.id);
    // Locked too: a payout of this expense either lands first (and the refund is refused) or waits.
    const expense = await Expense.query(trx)
      .findOne({ appointment_id: appointment.id, resource_id: appointment.resource_id, kind: "compensation" })
      .forUpdate();
    if (expense?.status === "paid") throw refused("Cannot cancel payment after the resource's expense has been paid");
    await refundLocked(trx, appointment, userId, { reason: "payment cancelled" }, true);
    return recordAppointmentChange(trx, account, before, appointment.id);
  });
}
