import type { ModelObject } from "objection";
import type { Appointment, Expense, Payment } from "../../models/scheduling/Appointment";

/** An appointment's columns: a model, or a row read without becoming one (the calendar's). */
export type AppointmentData = ModelObject<Appointment>;
import { iso } from "../time";

export function presentPayment(payment: Payment) {
  return {
    id: payment.id,
    appointment_id: payment.appointment_id,
    recorded_by_id: payment.recorded_by_id,
    amount: payment.amount,
    payment_method: payment.payment_method,
    payment_kind: payment.payment_kind,
    reason: payment.reason,
    created_at: iso(payment.created_at),
  };
}

export function presentExpense(expense: Expense) {
  return {
    id: expense.id,
    appointment_id: expense.appointment_id,
    resource_id: expense.resource_id,
    kind: expense.kind,
    amount: expense.amount,
    status: expense.status,
    paid_at: iso(expense.paid_at),
    paid_by_id: expense.paid_by_id,
    payout_id: expense.payout_id,
  };
}

/**
 * "The" expense of an appointment: the compensation of the resource it is with now. Entries of
 * resources it left (a compensation paid out before it moved, adjustments) are in the expense journal.
 */
export function currentExpense<E extends Pick<Expense, "appointment_id" | "resource_id" | "kind">>(
  appointment: Pick<Appointment, "id" | "resource_id">,
  expenses: readonly E[],
): E | undefined {
  return expenses.find((e) => e.appointment_id === appointment.id && e.kind === "compensation" && e.resource_id === appointment.resource_id);
}

/**
 * An appointment with its own payments and expense, as the calendar, the appointment endpoints and
 * the appointment events show it. conversation_id is the conversation's display id, the id clients
 * address conversations by.
 */
export function presentAppointment(appointment: AppointmentData, payments: readonly Pick<Payment, PaymentKey>[], expense: Expense | undefined) {
  return { ...appointmentFields(appointment), ...appointmentMoney(payments, expense) };
}

type PaymentKey = "id" | "amount" | "payment_method" | "payment_kind";

/** The keys presentAppointment adds to appointmentFields': its payments and its own expense. */
export function appointmentMoney(payments: readonly Pick<Payment, PaymentKey>[], expense: Pick<Expense, "id" | "amount" | "status"> | undefined) {
  return {
    payments: payments.map(({ id, amount, payment_method, payment_kind }) => ({ id, amount, payment_method, payment_kind })),
    expense: expense ? { id: expense.id, amount: expense.amount, status: expense.status } : null,
  };
}

/** presentAppointment without its payments and expense. */
export function appointmentFields(appointment: AppointmentData) {
  return {
    id: appointment.id,
    account_id: appointment.account_id,
    resource_id: appointment.resource_id,
    contact_id: appointment.contact_id,
    service_id: appointment.service_id,
    company_id: appointment.company_id,
    conversation_id: appointment.conversation_display_id ?? null,
    created_by_id: appointment.created_by_id,
    starts_at: iso(appointment.starts_at),
    ends_at: iso(appointment.ends_at),
    duration_min: appointment.duration_min,
    status: appointment.status,
    appointment_type: appointment.appointment_type,
    source: appointment.source,
    client_name: appointment.client_name,
    client_phone: appointment.client_phone,
    client_identifier: appointment.client_identifier,
    client_birth_date: appointment.client_birth_date,
    client_gender: appointment.client_gender,
    payment_status: appointment.payment_status,
    service_amount: appointment.service_amount,
    prepaid_amount: appointment.prepaid_amount,
    settlement_amount: appointment.settlement_amount,
    refunded_amount: appointment.refunded_amount,
    prepaid_payment_method: appointment.prepaid_payment_method,
    settlement_payment_method: appointment.settlement_payment_method,
    compensation_type_snapshot: appointment.compensation_type_snapshot,
    compensation_value_snapshot: appointment.compensation_value_snapshot,
    external_ref: appointment.external_ref,
    idempotency_key: appointment.idempotency_key,
    notes: appointment.notes,
    custom_attributes: appointment.custom_attributes,
    hold_expires_at: iso(appointment.hold_expires_at),
    cancelled_at: iso(appointment.cancelled_at),
    cancellation_reason: appointment.cancellation_reason,
  };
}
