import type { AppointmentStatus, CompensationType } from "../../scheduling/constants";
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
  payment_status!: string;
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

  /** The resources' appointments overlapping [from, to), cancelled ones included, by start then id. */
  static overlapping(accountId: number, resourceIds: readonly number[], from: Date, to: Date) {
    return Appointment.query()
      .where("account_id", accountId)
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

  static ofAppointments(appointmentIds: readonly number[]) {
    return Payment.query().whereIn("appointment_id", appointmentIds).orderBy(["appointment_id", "id"]);
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

  static ofAppointments(appointmentIds: readonly number[]) {
    return Expense.query().whereIn("appointment_id", appointmentIds).orderBy(["appointment_id", "id"]);
  }
}
