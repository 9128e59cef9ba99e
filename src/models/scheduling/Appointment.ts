import type { Knex } from "knex";
import { type QueryBuilder, raw } from "objection";
import type { AppointmentStatus, CompensationType, ExpenseKind, PaymentStatus } from "../../scheduling/constants";
import { SchedulingModel } from "./SchedulingModel";

/** A booking of a resource. The database refuses two live (not cancelled) bookings that overlap. */
export class Appointment extends SchedulingModel {
  static tableName = "scheduling_appointments";
  static jsonAttributes = ["custom_attributes"];
  static dateColumns = ["client_birth_date"];

  declare account_id: number;
  declare resource_id: number;
  declare contact_id: number | null;
  declare service_id: number | null;
  declare company_id: number | null;
  declare conversation_id: number | null;
  declare created_by_id: number | null;
  declare starts_at: Date;
  declare ends_at: Date;
  declare duration_min: number;
  declare status: AppointmentStatus;
  declare appointment_type: string;
  declare source: string;
  declare client_name: string;
  declare client_phone: string | null;
  declare client_identifier: string | null;
  declare client_birth_date: string | null;
  declare client_gender: string | null;
  declare payment_status: PaymentStatus;
  declare service_amount: number;
  declare prepaid_amount: number;
  declare settlement_amount: number;
  /** Of what was received, how much went back (refund entries); never more than was received. */
  declare refunded_amount: number;
  declare prepaid_payment_method: string | null;
  declare settlement_payment_method: string | null;
  declare compensation_type_snapshot: CompensationType | null;
  declare compensation_value_snapshot: number | null;
  declare external_ref: string | null;
  declare idempotency_key: string | null;
  declare notes: string | null;
  declare custom_attributes: Record<string, unknown>;
  declare cancelled_at: Date | null;
  declare cancellation_reason: string | null;
  /** While nothing is paid, the slot is held for a prepayment until then. */
  declare hold_expires_at: Date | null;
  /** When starts_at took its current value. */
  declare start_set_at: Date;
  /** What the idempotency key was first used with (see scheduling/idempotency.ts). */
  declare idempotency_fingerprint: string | null;
  /** The API request that last changed the booking, for its workflow's memo. */
  declare last_request_id: string | null;
  /** The linked conversation's per-account display id, which clients know it by (selected by `ofAccount`). */
  declare conversation_display_id?: number | null;

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

/** Appointments by their ids, or by a query of their ids (read in the same statement). */
type AppointmentIds = readonly number[] | QueryBuilder<Appointment, Appointment[]>;

/**
 * Rows of the appointments, by appointment then id. Ids go as one array parameter: thousands of them
 * as a parameter each cost more to build and bind than the query itself.
 */
function ofAppointments<M extends Payment | Expense>(query: QueryBuilder<M, M[]>, appointments: AppointmentIds): QueryBuilder<M, M[]> {
  const of = Array.isArray(appointments)
    ? query.whereRaw("appointment_id = ANY(?::bigint[])", [appointments])
    : query.whereIn("appointment_id", appointments as QueryBuilder<Appointment, Appointment[]>);
  return of.orderBy(["appointment_id", "id"]);
}

/**
 * A money movement on an appointment: the prepaid mirror, recorded payments, the settlement
 * adjustment, or a refund (money given back, with why).
 */
export class Payment extends SchedulingModel {
  static tableName = "scheduling_payments";

  declare account_id: number;
  declare appointment_id: number;
  declare recorded_by_id: number | null;
  declare amount: number;
  declare payment_method: string;
  declare payment_kind: string;
  declare reason: string | null;

  /** The appointments' payments, by appointment then id. */
  static ofAppointments(appointments: AppointmentIds, db?: Knex) {
    return ofAppointments(Payment.query(db), appointments);
  }
}

/**
 * What the account owes a resource for a paid appointment (kind compensation, one per resource that
 * had the booking), or a correction of it (kind adjustment, negative to claw back); frozen once paid out.
 */
export class Expense extends SchedulingModel {
  static tableName = "scheduling_expenses";

  declare account_id: number;
  declare appointment_id: number;
  declare resource_id: number;
  declare kind: ExpenseKind;
  declare amount: number;
  declare status: string;
  declare paid_at: Date | null;
  declare paid_by_id: number | null;
  /** The pay_all run that paid it, if one did. */
  declare payout_id: string | null;

  /** The appointments' expenses, by appointment then id. */
  static ofAppointments(appointments: AppointmentIds, db?: Knex) {
    return ofAppointments(Expense.query(db), appointments);
  }
}

/** A message the appointment's workflow posted into its conversation, recorded so it is posted once. */
export class AppointmentNotice extends SchedulingModel {
  static tableName = "scheduling_appointment_notices";

  declare account_id: number;
  declare appointment_id: number;
  declare kind: "confirmation" | "rescheduled" | "reminder" | "cancelled" | "confirmation_request";
  declare key: string;
  declare message_id: number | null;
}
