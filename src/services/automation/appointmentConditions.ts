/**
 * An appointment rule's conditions (our extension of automation rules): the booking's status,
 * payment status, service and resource, and the weekday and hour its start falls on in its
 * resource's zone, with the operators of conversation rules (conditions.ts does the evaluating).
 */
import type { Knex } from "knex";
import type { AutomationCondition } from "../../models/AutomationRule";
import { Appointment } from "../../models/scheduling/Appointment";
import { Resource } from "../../models/scheduling/Resource";
import { isoInZone, localDateOf, weekdayOf } from "../../scheduling/timezone";
import { type AttributeSpec, type ConditionResult, matchConditions } from "./conditions";

export interface AppointmentSnapshot {
  status: string;
  payment_status: string;
  service_id: number | null;
  resource_id: number;
  /** 0 = Sunday … 6 = Saturday, as the resources' work rules count. */
  start_weekday: number;
  /** 0–23. */
  start_hour: number;
}

const EQUALITY = ["equal_to", "not_equal_to"] as const;
const NUMBERS = [...EQUALITY, "is_greater_than", "is_less_than"] as const;

const attribute = (key: keyof AppointmentSnapshot, operators: AttributeSpec<AppointmentSnapshot>["operators"], kind: "text" | "id" | "number") => ({
  operators,
  kind,
  source: { column: key },
  read: (row: AppointmentSnapshot) => row[key],
});

const ATTRIBUTES: Record<string, AttributeSpec<AppointmentSnapshot>> = {
  status: attribute("status", EQUALITY, "text"),
  payment_status: attribute("payment_status", EQUALITY, "text"),
  service_id: attribute("service_id", [...EQUALITY, "is_present", "is_not_present"], "id"),
  resource_id: attribute("resource_id", EQUALITY, "id"),
  start_weekday: attribute("start_weekday", NUMBERS, "number"),
  start_hour: attribute("start_hour", NUMBERS, "number"),
};

/** The booking as its conditions see it, its start read on its resource's wall clock. */
export function appointmentSnapshot(appointment: Appointment, timeZone: string): AppointmentSnapshot {
  const startsAt = appointment.starts_at.getTime();
  return {
    status: appointment.status,
    payment_status: appointment.payment_status,
    service_id: appointment.service_id,
    resource_id: appointment.resource_id,
    start_weekday: weekdayOf(localDateOf(startsAt, timeZone)),
    start_hour: Number(isoInZone(startsAt, timeZone).slice(11, 13)),
  };
}

export function evaluateAppointmentConditions(
  conditions: readonly AutomationCondition[],
  snapshot: AppointmentSnapshot,
  changed: Record<string, [unknown, unknown]>,
  now = new Date(),
): ConditionResult {
  return matchConditions(conditions, (condition) => ATTRIBUTES[condition.attribute_key], [snapshot], changed, now);
}

/** The conditions against the booking as it is now (Chatwoot too evaluates when the job runs). */
export async function appointmentConditionsHold(
  db: Knex,
  accountId: number,
  appointmentId: number,
  conditions: readonly AutomationCondition[],
  changed: Record<string, [unknown, unknown]>,
): Promise<ConditionResult> {
  const appointment = await Appointment.query(db).findOne({ id: appointmentId, account_id: accountId });
  if (!appointment) return { matched: false, reason: "appointment no longer exists" };
  const resource = await Resource.query(db).findById(appointment.resource_id).throwIfNotFound();
  return evaluateAppointmentConditions(conditions, appointmentSnapshot(appointment, resource.timezone), changed);
}
