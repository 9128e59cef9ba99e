/**
 * The payment side of a booking (docs/scheduling-money.md): the payment journal that mirrors the
 * appointment's amounts, the resource's expenses (expenses.ts) and recording a payment; refunds are in refunds.ts. Every
 * write runs in the caller's transaction under the appointment's row lock, so the amounts, the
 * journal and the expense change together or not at all.
 */
import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { type Appointment, Payment } from "../models/scheduling/Appointment";
import type { PaymentKind, PaymentMethod } from "./constants";
import { findAppointmentView, lockAppointment, recordAppointmentChange, type AppointmentView } from "./appointmentRecords";
import { refused } from "./errors";
import { syncExpenses } from "./expenses";
import { derivePaymentStatus, receivedOf, remainingOf } from "./money";

/**
 * The fork's FinanceSyncService#sync!: journal rows and expense brought in line with the
 * appointment's amounts, reading what exists once and writing only what changes. A booking just
 * inserted (`fresh`) has neither rows nor expense to read.
 */
export async function syncFinance(trx: Knex.Transaction, appointment: Appointment, recordedById: number | null, fresh = false): Promise<void> {
  const payments = fresh ? [] : await Payment.query(trx).where("appointment_id", appointment.id);
  const recorded = payments.filter((p) => p.payment_kind === "payment").reduce((sum, p) => sum + p.amount, 0);
  if (appointment.settlement_amount < recorded) throw refused("settlement_amount cannot be less than the total of recorded payments");
  const mirror = { trx, appointment, payments, recordedById };
  await mirrorPayment(mirror, "prepaid", appointment.prepaid_amount, appointment.prepaid_payment_method);
  await mirrorPayment(mirror, "adjustment", appointment.settlement_amount - recorded, appointment.settlement_payment_method);
  await syncExpenses(trx, appointment, fresh);
}

interface Mirror {
  trx: Knex.Transaction;
  appointment: Appointment;
  payments: Payment[];
  recordedById: number | null;
}

/** The one prepaid (or adjustment) row: it mirrors an amount and its method, and goes when either is missing. */
async function mirrorPayment(
  { trx, appointment, payments, recordedById }: Mirror,
  kind: Exclude<PaymentKind, "payment">,
  amount: number,
  method: string | null,
): Promise<void> {
  const existing = payments.find((p) => p.payment_kind === kind);
  if (amount <= 0 || !method) {
    if (existing) await existing.$query(trx).delete();
  } else if (!existing) {
    await Payment.query(trx).insert({
      account_id: appointment.account_id,
      appointment_id: appointment.id,
      amount,
      payment_method: method,
      payment_kind: kind,
      recorded_by_id: recordedById,
    });
  } else if (existing.amount !== amount || existing.payment_method !== method) {
    await existing.$query(trx).patch({ amount, payment_method: method, recorded_by_id: recordedById });
  }
}

export interface PaymentInput {
  amount?: number;
  payment_method: PaymentMethod;
}

/** A payment at the desk: by default the remaining balance, never more; a prepayment in time ends the hold. */
export async function recordPayment(db: Knex, account: Account, userId: number | null, appointmentId: number, input: PaymentInput): Promise<AppointmentView> {
  return db.transaction(async (trx) => {
    const appointment = await lockAppointment(trx, account.id, appointmentId);
    const before = await findAppointmentView(trx, account.id, appointment.id);
    if (appointment.service_amount <= 0) throw refused("Set service_amount before adding payment");
    if (appointment.payment_status === "cancelled") throw refused("Cancelled payments cannot be updated");
    if (appointment.payment_status === "refunded") throw refused("Refunded payments cannot be updated");
    const amount = input.amount ?? remainingOf(appointment);
    if (amount <= 0) throw refused("Payment amount must be greater than 0");
    if (receivedOf(appointment) + amount > appointment.service_amount) throw refused("Payment amount exceeds remaining balance");

    await Payment.query(trx).insert({
      account_id: account.id,
      appointment_id: appointment.id,
      recorded_by_id: userId,
      amount,
      payment_method: input.payment_method,
      payment_kind: "payment",
    });
    const settlement = appointment.settlement_amount + amount;
    const updated = await appointment.$query(trx).patchAndFetch({
      settlement_amount: settlement,
      settlement_payment_method: input.payment_method,
      payment_status: derivePaymentStatus({ ...appointment, settlement_amount: settlement }, false),
      hold_expires_at: null,
    });
    await syncFinance(trx, updated, userId);
    return recordAppointmentChange(trx, account, before, appointment.id);
  });
}
