/**
 * The calendar's appointments with their JSON written by PostgreSQL: a busy month is thousands of
 * rows of some forty columns, which would otherwise be parsed into Dates and objects only to be
 * written back as text. The JSON is appointmentFields' (presenters/scheduling/appointments.ts), key
 * for key; test/scheduling/calendarBody.test.ts holds the two together.
 */
import { raw } from "objection";
import { Batch } from "../db/batch";
import { Appointment } from "../models/scheduling/Appointment";

/** An appointment of the calendar: what the slot computation and the money need, and its JSON. */
export interface CalendarAppointment extends Pick<
  Appointment,
  "id" | "resource_id" | "status" | "starts_at" | "ends_at" | "custom_attributes" | "cancellation_reason"
> {
  /** appointmentFields' keys before custom_attributes, as a JSON object's text. */
  json_before: string;
  /** The keys after custom_attributes, as appointmentFields has them (instants as ISO text). */
  hold_expires_at: string | null;
  cancelled_at: string | null;
}

/** An instant as Date#toISOString writes it. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;

/**
 * appointmentFields' keys and values as SQL (of the appointment's columns), in its order, up to
 * custom_attributes: PostgreSQL writes jsonb with spaces and in an order of its own, so that one
 * goes through JSON.stringify, with the three keys after it.
 */
const BEFORE = [
  "id, account_id, resource_id, contact_id, service_id, company_id",
  "(select display_id from conversations where conversations.id = scheduling_appointments.conversation_id) as conversation_id",
  "created_by_id",
  iso("starts_at"),
  iso("ends_at"),
  "duration_min, status, appointment_type, source, client_name, client_phone, client_identifier",
  // Years unpadded, as the model writes a date.
  "to_char(client_birth_date, 'FMYYYY-MM-DD') as client_birth_date",
  "client_gender, payment_status, service_amount, prepaid_amount, settlement_amount, refunded_amount",
  "prepaid_payment_method, settlement_payment_method, compensation_type_snapshot, compensation_value_snapshot",
  "external_ref, idempotency_key, notes",
].join(", ");

/** row_to_json writes a row's columns as they are named, without spaces (json_build_object adds some). */
const jsonOf = (columns: string, as: string) => raw(`(select row_to_json(r)::text from (select ${columns}) r) as ${as}`);

/** Appointment.overlapping's appointments (cancelled ones included, by start then id) with their JSON, queued on a batch. */
export function queueCalendarAppointments(
  batch: Batch,
  accountId: number,
  resourceIds: readonly number[],
  from: Date,
  to: Date,
): Promise<CalendarAppointment[]> {
  const query = Appointment.overlapping(accountId, resourceIds, from, to)
    .clearSelect()
    .select(
      "id",
      "resource_id",
      "status",
      "starts_at",
      "ends_at",
      "custom_attributes",
      jsonOf(BEFORE, "json_before"),
      raw(iso("hold_expires_at")),
      raw(iso("cancelled_at")),
      "cancellation_reason",
    );
  return batch.rows<CalendarAppointment>(query.toKnexQuery());
}
