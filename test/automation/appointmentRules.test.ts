import test from "ava";
import { automationRuleWorkflowId } from "../../src/temporal/contracts";
import { AppointmentIdAttribute } from "../../src/temporal/searchAttributes";
import type { AutomationRunResult } from "../../workflows/automationRule";
import { workflowExists } from "../support/eventually";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { Receiver } from "../support/receiver";
import { book, conversationMessages, liveClinic, type LiveClinic } from "../scheduling/bookingSupport";

const h = useHarness(test, { relay: true });

const MINUTE = 60_000;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const condition = (attribute_key: string, filter_operator: string, values: unknown, query_operator: string | null = null) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator,
});

interface RuleSpec {
  event_name: string;
  conditions: Record<string, unknown>[];
  actions: { action_name: string; action_params?: unknown[] }[];
}
const rule = (c: LiveClinic, spec: RuleSpec) =>
  expectOk(accountApi(h, c.account).post("/automation_rules", { name: `on ${spec.event_name}`, ...spec }), `rule on ${spec.event_name}`);

const bookFor = (c: LiveClinic, startsAt: string, extra: Record<string, unknown> = {}) =>
  book(c.api, { resource_id: c.resource.id, service_id: c.service.id, contact_id: c.contact.id, inbox_id: c.inbox.id, starts_at: startsAt, ...extra });

/** The outbox event of that name about the appointment (the newest), once recorded. */
const eventOf = (appointmentId: number, name: string) =>
  h
    .knex("events")
    .where("name", name)
    .whereRaw("payload->>'id' = ?", [String(appointmentId)])
    .orderBy("id", "desc")
    .first();

const ruleRun = (event: { uid: string }, ruleId: number) =>
  h.deps.temporal.client.workflow.getHandle(automationRuleWorkflowId(h.deps.temporal.installationId, event.uid, ruleId));

async function runOf(event: { uid: string }, ruleId: number): Promise<AutomationRunResult> {
  const handle = ruleRun(event, ruleId);
  await workflowExists(handle, `workflow ${handle.workflowId}`);
  return handle.result();
}

const conversationOf = (c: LiveClinic, displayId: number) => h.knex("conversations").where({ account_id: c.account.id, display_id: displayId }).first();

test("appointment_created: conditions on service, resource, weekday and hour; messages, labels, team, agent and a webhook with the booking", async (t) => {
  const c = await liveClinic(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const team = await expectOk(accountApi(h, c.account).post("/teams", { name: "Front desk" }), "team");
  const startsAt = inMs(3 * 24 * 60 * MINUTE);
  // The resource's zone has midday now, so the start's local hour is 12 or 13 (the minutes decide).
  const hour = Number(new Date(Date.parse(startsAt)).toLocaleString("en-GB", { timeZone: c.resource.timezone, hour: "2-digit", hourCycle: "h23" }));
  const weekday = new Date(new Date(Date.parse(startsAt)).toLocaleString("en-US", { timeZone: c.resource.timezone })).getDay();
  const created = await rule(c, {
    event_name: "appointment_created",
    conditions: [
      condition("service_id", "equal_to", [c.service.id], "AND"),
      condition("resource_id", "equal_to", [String(c.resource.id)], "AND"),
      condition("start_weekday", "equal_to", [weekday], "AND"),
      condition("start_hour", "is_greater_than", [hour - 1], "AND"),
      condition("start_hour", "is_less_than", [hour + 1]),
    ],
    actions: [
      { action_name: "send_message", action_params: ["See you soon"] },
      { action_name: "add_label", action_params: ["booked"] },
      { action_name: "assign_team", action_params: [team.id] },
      { action_name: "assign_agent", action_params: [c.account.admin.id] },
      { action_name: "send_webhook_event", action_params: [receiver.url] },
    ],
  });
  // Another hour: does not match.
  const otherHour = await rule(c, {
    event_name: "appointment_created",
    conditions: [condition("start_hour", "equal_to", [(hour + 5) % 24])],
    actions: [{ action_name: "send_message", action_params: ["Wrong hour"] }],
  });

  const appointment = await bookFor(c, startsAt);
  const event = await eventOf(appointment.id, "appointment.created");
  t.deepEqual(await runOf(event, created.id), {
    matched: true,
    actions: ["send_message", "add_label", "assign_team", "assign_agent", "send_webhook_event"].map((action) => ({ action, status: "done" })),
  });
  t.deepEqual(await runOf(event, otherHour.id), { matched: false, reason: "conditions do not match" });

  const conversation = await conversationOf(c, appointment.conversation_id);
  t.deepEqual(conversation.labels, ["booked"]);
  t.is(conversation.team_id, team.id);
  t.is(conversation.assignee_id, c.account.admin.id);
  const contents = (await conversationMessages(h, c.account, appointment.conversation_id)).map((m) => m.content);
  t.is(contents.filter((m) => m === "See you soon").length, 1);
  t.false(contents.includes("Wrong hour"));

  t.is(receiver.requests.length, 1);
  t.like(receiver.requests[0]!.body, {
    event: "automation_event.appointment_created",
    id: appointment.id,
    status: "scheduled",
    resource_id: c.resource.id,
    account: { id: c.account.id },
  });
  const description = await ruleRun(event, created.id).describe();
  t.is(description.typedSearchAttributes.get(AppointmentIdAttribute), String(appointment.id));
  t.is(await description.staticSummary(), `Automation rule ${created.id} on appointment_created of appointment #${appointment.id} (event ${event.id})`);
});

test("appointment_updated: change_appointment_status confirms, and the rule's own change triggers no rule (loop guard)", async (t) => {
  const c = await liveClinic(h);
  // Without the guard its own change (an appointment.updated) would run it again, forever.
  const confirming = await rule(c, {
    event_name: "appointment_updated",
    conditions: [condition("payment_status", "attribute_changed", { from: ["awaiting_payment"], to: ["paid"] })],
    actions: [
      { action_name: "change_appointment_status", action_params: ["confirmed"] },
      { action_name: "send_message", action_params: ["Payment received, you are confirmed"] },
    ],
  });
  const anyUpdate = await rule(c, {
    event_name: "appointment_updated",
    conditions: [condition("status", "equal_to", ["scheduled", "confirmed"])],
    actions: [{ action_name: "add_label", action_params: ["touched"] }],
  });
  const appointment = await bookFor(c, inMs(2 * 24 * 60 * MINUTE));
  const paid = await c.api.patch(`/appointments/${appointment.id}`, { settlement_amount: 10_000, settlement_payment_method: "cash" });
  t.is(paid.status, 200);
  const payment = await eventOf(appointment.id, "appointment.updated");
  t.deepEqual(await runOf(payment, confirming.id), {
    matched: true,
    actions: [
      { action: "change_appointment_status", status: "done" },
      { action: "send_message", status: "done" },
    ],
  });
  t.is((await runOf(payment, anyUpdate.id)).matched, true);

  const { body } = await c.api.get(`/appointments/${appointment.id}`);
  t.is(body.payload.status, "confirmed");
  const ruleChange = await eventOf(appointment.id, "appointment.updated");
  t.not(ruleChange.id, payment.id);
  t.is(Number(ruleChange.performed_by_rule_id), confirming.id);
  t.like(ruleChange.payload.changed_attributes, [{ status: { previous_value: "scheduled", current_value: "confirmed" } }]);
  // The rule's change reaches webhooks and the appointment's workflow, but no rule.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.truthy((await h.knex("events").where("id", ruleChange.id).first()).dispatched_at);
  await t.throwsAsync(ruleRun(ruleChange, anyUpdate.id).describe(), undefined, "no rule ran on the rule's own change");

  // Completing a booking that has not started is refused: the action fails, the next still runs.
  const again = await rule(c, {
    event_name: "appointment_updated",
    conditions: [condition("status", "equal_to", ["confirmed"])],
    actions: [
      { action_name: "change_appointment_status", action_params: ["completed"] },
      { action_name: "change_appointment_status", action_params: ["confirmed"] },
    ],
  });
  await c.api.patch(`/appointments/${appointment.id}`, { notes: "Bring the results" });
  const noted = await eventOf(appointment.id, "appointment.updated");
  const run = await runOf(noted, again.id);
  t.like(run, { matched: true, actions: [{ action: "change_appointment_status", status: "failed" }, { status: "skipped" }] });
});

test("appointment_rescheduled and appointment_cancelled rules; actions on the conversation skip a booking without one", async (t) => {
  const c = await liveClinic(h);
  const refusing = await new Receiver(() => 500).start();
  t.teardown(() => refusing.stop());
  const moved = await rule(c, {
    event_name: "appointment_rescheduled",
    conditions: [condition("status", "equal_to", ["scheduled"])],
    actions: [{ action_name: "send_message", action_params: ["Your new time is saved"] }],
  });
  const cancelled = await rule(c, {
    event_name: "appointment_cancelled",
    conditions: [condition("status", "equal_to", ["cancelled"], "AND"), condition("service_id", "is_present", [])],
    actions: [
      { action_name: "add_label", action_params: ["cancelled-booking"] },
      { action_name: "send_webhook_event", action_params: [refusing.url] },
    ],
  });
  const appointment = await bookFor(c, inMs(2 * 24 * 60 * MINUTE));
  await expectOk(c.api.patch(`/appointments/${appointment.id}`, { starts_at: inMs(2 * 24 * 60 * MINUTE + 30 * MINUTE) }), "move");
  t.deepEqual(await runOf(await eventOf(appointment.id, "appointment.rescheduled"), moved.id), {
    matched: true,
    actions: [{ action: "send_message", status: "done" }],
  });
  const contents = (await conversationMessages(h, c.account, appointment.conversation_id)).map((m) => m.content);
  t.true(contents.includes("Your new time is saved"));

  await expectOk(c.api.post(`/appointments/${appointment.id}/cancel`, {}), "cancel");
  const run = await runOf(await eventOf(appointment.id, "appointment.cancelled"), cancelled.id);
  t.like(run, {
    matched: true,
    actions: [
      { action: "add_label", status: "done" },
      { action: "send_webhook_event", status: "failed" },
    ],
  });
  t.deepEqual((await conversationOf(c, appointment.conversation_id)).labels, ["cancelled-booking"]);

  // A walk-in without a conversation: the conversation's actions have nothing to act on.
  const walkIn = await book(c.api, { resource_id: c.resource.id, service_id: c.service.id, client_name: "Walk-in", starts_at: inMs(3 * 24 * 60 * MINUTE) });
  await expectOk(c.api.post(`/appointments/${walkIn.id}/cancel`, {}), "cancel the walk-in");
  t.like(await runOf(await eventOf(walkIn.id, "appointment.cancelled"), cancelled.id), {
    matched: true,
    actions: [{ action: "add_label", status: "skipped", detail: "the appointment has no linked conversation" }],
  });
});

test("appointment rules accept only the booking's conditions and actions; conversation rules refuse the booking's", async (t) => {
  const c = await liveClinic(h);
  const api = accountApi(h, c.account);
  const onAppointment = { name: "r", event_name: "appointment_created", actions: [{ action_name: "send_message", action_params: ["hi"] }] };
  const badCondition = await api.post("/automation_rules", { ...onAppointment, conditions: [condition("content", "contains", ["x"])] });
  t.is(badCondition.status, 422);
  t.deepEqual(badCondition.body, { error: { conditions: ["Automation conditions content not supported."] } });
  const ok = await api.post("/automation_rules", {
    ...onAppointment,
    conditions: [condition("start_weekday", "equal_to", [1])],
    actions: [{ action_name: "change_appointment_status", action_params: ["confirmed"] }],
  });
  t.is(ok.status, 200);
  const onConversation = await api.post("/automation_rules", {
    name: "r",
    event_name: "conversation_created",
    conditions: [condition("status", "equal_to", ["open"])],
    actions: [{ action_name: "change_appointment_status", action_params: ["confirmed"] }],
  });
  t.is(onConversation.status, 422);
  t.deepEqual(onConversation.body, { error: { actions: ["Automation actions change_appointment_status not supported."] } });
});
