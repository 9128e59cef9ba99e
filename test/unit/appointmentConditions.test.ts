import test from "ava";
import type { Appointment } from "../../src/models/scheduling/Appointment";
import { appointmentSnapshot, evaluateAppointmentConditions } from "../../src/services/automation/appointmentConditions";

const condition = (attribute_key: string, filter_operator: string, values: unknown, query_operator: string | null = null) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator,
});

// Sunday 23:30 UTC is Monday 04:30 in Almaty (+05:00).
const booking = {
  status: "scheduled",
  payment_status: "awaiting_payment",
  service_id: 7,
  resource_id: 3,
  starts_at: new Date("2030-03-03T23:30:00Z"),
} as Appointment;

test("the start's weekday and hour are read on the resource's wall clock", (t) => {
  t.like(appointmentSnapshot(booking, "Asia/Almaty"), { start_weekday: 1, start_hour: 4 });
  t.like(appointmentSnapshot(booking, "UTC"), { start_weekday: 0, start_hour: 23 });
});

test("appointment conditions: equality, ranges, presence, AND before OR, attribute_changed, unknown keys", (t) => {
  const snapshot = appointmentSnapshot(booking, "Asia/Almaty");
  const holds = (conditions: ReturnType<typeof condition>[], changed: Record<string, [unknown, unknown]> = {}) =>
    evaluateAppointmentConditions(conditions, snapshot, changed).matched;
  t.true(holds([condition("service_id", "equal_to", ["7"], "AND"), condition("resource_id", "equal_to", [3])]));
  t.false(holds([condition("service_id", "equal_to", [8])]));
  t.true(holds([condition("start_hour", "is_less_than", [9], "AND"), condition("start_weekday", "equal_to", [1])]));
  t.false(holds([condition("start_hour", "is_greater_than", [9])]));
  t.true(holds([condition("status", "equal_to", ["confirmed"], "OR"), condition("payment_status", "equal_to", ["awaiting_payment"])]));
  t.false(holds([condition("status", "equal_to", ["confirmed"], "AND"), condition("payment_status", "equal_to", ["awaiting_payment"])]));
  t.true(holds([condition("service_id", "is_present", [])]));
  t.true(holds([condition("status", "attribute_changed", { from: ["confirmed"], to: ["scheduled"] })], { status: ["confirmed", "scheduled"] }));
  t.false(holds([condition("status", "attribute_changed", { from: ["confirmed"], to: ["scheduled"] })], {}));
  t.deepEqual(evaluateAppointmentConditions([condition("content", "contains", ["x"])], snapshot, {}), {
    matched: false,
    reason: "condition on unknown attribute content",
  });
  t.deepEqual(evaluateAppointmentConditions([condition("resource_id", "contains", ["3"])], snapshot, {}), {
    matched: false,
    reason: "operator contains is not allowed for resource_id",
  });
});
