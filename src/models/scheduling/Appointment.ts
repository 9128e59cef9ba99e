import type { Knex } from "knex";
import { raw } from "objection";
import type { AppointmentStatus, CompensationType, PaymentStatus } from "../../scheduling/constants";
import { SchedulingModel } from "./SchedulingModel";

/** A booking of a resource. The database refuses two live (not cancelled) bookings that overlap. */
export class Appointment extends SchedulingModel {
  static tableName = "scheduling_appointments";
  static jsonAttributes = ["custom_attributes"];
  static dateColumns = ["client_birth_date"];

  account_id!: number;
  resource_id!: number;
  contact_id!: number | null;
  service_id!: number | null;
  company_id!: number | null;
  conversation_id!: number | null;
  created_by_id!: number | null;
  starts_at!: Date;
  ends_at!: Date;
  duration_min!: number;
  status!: AppointmentStatus;
  appointment_type!: string;
  source!: string;
  client_name!: string;
  client_phone!: string | null;
  client_identifier!: string | null;
  client_birth_date!: string | null;
  client_gender!: string | null;
  payment_status!: PaymentStatus;
  service_amount!: number;
  prepaid_amount!: number;
  settlement_amount!: number;
  prepaid_payment_method!: string | null;
  settlement_payment_method!: string | null;
  compensation_type_snapshot!: CompensationType | null;
  compensation_value_snapshot!: number | null;
  external_ref!: string | null;
  idempotency_key!: string | null;
  notes!: string | null;
  custom_attributes!: Record<string, unknown>;
  cancelled_at!: Date | null;
  cancellation_reason!: string | null;
  /** While nothing is paid, the slot is held for a prepayment until then. */
  hold_expires_at!: Date | null;
  /** When starts_at took its current value. */
  start_set_at!: Date;
  /** The linked conversation's per-account display id, which clients know it by (selected by `ofAccount`). */
  conversation_display_id?: number | null;

  /** The account's appointments, with the display id of their conversation. */
  static ofAccount(accountId: number, db?: Knex) {
    return Appointment.query(db)
      .select(
        "scheduling_appointments.*",
        raw("(SELECT display_id FROM conversations WHERE conversations.id = scheduling_appointments.conversation_id) AS conversation_display_id"),
      )
      .where("scheduling_appointments.account_id", accountId);
  }

  /** The resources' appointments overlapping [from, to), cancelled ones included, by start then id. */
  static overlapping(accountId: number, resourceIds: readonly number[], from: Date, to: Date, db?: Knex) {
    return Appointment.ofAccount(accountId, db)
      .whereIn("resource_id", resourceIds)
      .where("starts_at", "<", to)
      .where("ends_at", ">", from)
      .orderBy(["starts_at", "id"]);
  }
}

/** A money movement on an appointment: the prepaid mirror, recorded payments, or the settlement adjustment. */
export class Payment extends SchedulingModel {
  static tableName = "scheduling_payments";

  account_id!: number;
  appointment_id!: number;
  recorded_by_id!: number | null;
  amount!: number;
  payment_method!: string;
  payment_kind!: string;

  // One array parameter: a month's calendar asks for thousands of appointments, and a parameter each
  // cost more to build and bind than the query itself.
  static ofAppointments(appointmentIds: readonly number[], db?: Knex) {
    return Payment.query(db).whereRaw("appointment_id = ANY(?::bigint[])", [appointmentIds]).orderBy(["appointment_id", "id"]);
  }
}

/** What the account owes the resource for a paid appointment; frozen once paid out. */
export class Expense extends SchedulingModel {
  static tableName = "scheduling_expenses";

  account_id!: number;
  appointment_id!: number;
  resource_id!: number;
  amount!: number;
  status!: string;
  paid_at!: Date | null;
  paid_by_id!: number | null;
  /** The pay_all run that paid it, if one did. */
  payout_id!: string | null;

  static ofAppointments(appointmentIds: readonly number[], db?: Knex) {
    return Expense.query(db).whereRaw("appointment_id = ANY(?::bigint[])", [appointmentIds]).orderBy(["appointment_id", "id"]);
  }
}

/** A message the appointment's workflow posted into its conversation, recorded so it is posted once. */
export class AppointmentNotice extends SchedulingModel {
  static tableName = "scheduling_appointment_notices";

  account_id!: number;
  appointment_id!: number;
  kind!: "confirmation" | "rescheduled" | "reminder" | "cancelled";
  key!: string;
  message_id!: number | null;
}
