import { z } from "zod";
import { id, jsonObject } from "../../../../http/schemas";
import { APPOINTMENT_STATUSES, APPOINTMENT_TYPES, MAX_HOLD_MINUTES, PAYMENT_METHODS, PAYMENT_STATUSES } from "../../../../scheduling/constants";
import { body, booleanParam, calendarDate, csvIds, csvOf, durationMin, flag, instant, money, pagination, requiredText, text, timeInput } from "../common";

const appointmentFields = z
  .object({
    resource_id: id(),
    contact_id: id().nullable(),
    service_id: id().nullable(),
    company_id: id().nullable(),
    /** The conversation's display id, as clients know it. */
    conversation_id: id().nullable(),
    /** With a contact and no conversation: a conversation is opened in this inbox for the booking's messages. */
    inbox_id: id(),
    created_by_id: id().nullable(),
    starts_at: timeInput(),
    ends_at: timeInput(),
    duration_min: durationMin(),
    status: z.enum(APPOINTMENT_STATUSES),
    appointment_type: z.enum(APPOINTMENT_TYPES),
    source: requiredText(),
    client_name: text().nullable(),
    client_phone: z.string().trim().max(50).nullable(),
    client_identifier: text().nullable(),
    client_birth_date: calendarDate().nullable(),
    client_gender: text().nullable(),
    notes: z.string().max(10_000).nullable(),
    /** The fork's name for notes. */
    client_comment: z.string().max(10_000).nullable(),
    external_ref: text().nullable(),
    idempotency_key: text().nullable(),
    service_amount: money(),
    prepaid_amount: money(),
    prepaid_payment_method: z.enum(PAYMENT_METHODS).nullable(),
    settlement_amount: money(),
    settlement_payment_method: z.enum(PAYMENT_METHODS).nullable(),
    /** Derived from the amounts; only "cancelled" (or leaving it) means something here. */
    payment_status: z.enum(PAYMENT_STATUSES),
    custom_attributes: jsonObject(),
  })
  .partial();

/** Hold the slot unpaid for this long (or until then); past it without a prepayment, the booking is cancelled. */
const holdFields = z
  .object({
    hold_minutes: z.number().int().min(1).max(MAX_HOLD_MINUTES),
    hold_until: timeInput(),
  })
  .partial();

/** Staff recording a visit that already happened: the minimum notice does not apply. */
const pastVisitField = z.object({ record_past_visit: z.union([z.boolean(), booleanParam]) }).partial();

export const appointmentCreate = body(
  "appointment",
  appointmentFields.extend(holdFields.shape).extend(pastVisitField.shape).required({ resource_id: true, starts_at: true }),
  "SchedulingAppointmentCreate",
);

export const appointmentUpdate = body(
  "appointment",
  appointmentFields.extend(holdFields.shape).extend(pastVisitField.shape).extend({
    /** On a move to another resource the price is kept (docs/scheduling-money.md); true takes the new resource's price. */
    reprice: flag().optional(),
  }),
  "SchedulingAppointmentUpdate",
);
export type AppointmentInput = z.output<typeof appointmentFields> & z.output<typeof holdFields> & z.output<typeof pastVisitField>;

export const cancelBody = z.object({ cancellation_reason: text().nullable().optional() }).openapi("SchedulingAppointmentCancel");

export const appointmentsQuery = z
  .object({
    resource_ids: csvIds.optional(),
    status: csvOf(APPOINTMENT_STATUSES).optional(),
    payment_status: csvOf(PAYMENT_STATUSES).optional(),
    contact_id: id().optional(),
    from: instant().optional(),
    to: instant().optional(),
    ...pagination,
  })
  .openapi("SchedulingAppointmentsQuery");
export const appointmentResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number(),
    contact_id: z.number().nullable(),
    service_id: z.number().nullable(),
    company_id: z.number().nullable(),
    conversation_id: z.number().nullable(),
    created_by_id: z.number().nullable(),
    starts_at: z.string(),
    ends_at: z.string(),
    duration_min: z.number(),
    status: z.string(),
    appointment_type: z.string(),
    source: z.string(),
    client_name: z.string(),
    client_phone: z.string().nullable(),
    client_identifier: z.string().nullable(),
    client_birth_date: z.string().nullable(),
    client_gender: z.string().nullable(),
    payment_status: z.string(),
    service_amount: z.number(),
    prepaid_amount: z.number(),
    settlement_amount: z.number(),
    /** Of what was received, how much was refunded. */
    refunded_amount: z.number(),
    prepaid_payment_method: z.string().nullable(),
    settlement_payment_method: z.string().nullable(),
    compensation_type_snapshot: z.string().nullable(),
    compensation_value_snapshot: z.number().nullable(),
    external_ref: z.string().nullable(),
    idempotency_key: z.string().nullable(),
    notes: z.string().nullable(),
    custom_attributes: jsonObject(),
    hold_expires_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    cancellation_reason: z.string().nullable(),
    payments: z.array(z.object({ id: z.number(), amount: z.number(), payment_method: z.string(), payment_kind: z.string() })),
    expense: z.object({ id: z.number(), amount: z.number(), status: z.string() }).nullable(),
  })
  .openapi("SchedulingAppointment");
export const appointmentPaymentParams = z.object({ account_id: id(), appointment_id: id() });

export const paymentBody = body(
  "payment",
  z.object({
    /** Defaults to the remaining balance. */
    amount: z.number().int().optional(),
    payment_method: z.enum(PAYMENT_METHODS),
  }),
  "SchedulingPaymentCreate",
);

export const refundBody = body(
  "refund",
  z.object({
    /** Defaults to everything paid and not yet refunded. */
    amount: z.number().int().optional(),
    /** Defaults to the method the money last came in by. */
    payment_method: z.enum(PAYMENT_METHODS).optional(),
    reason: z.string().trim().max(1000).nullable().optional(),
  }),
  "SchedulingRefundCreate",
);
