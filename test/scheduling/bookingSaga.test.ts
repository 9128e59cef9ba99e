import test from "ava";
import { eventually } from "../support/eventually";
import { HOLD_EXPIRED_REASON } from "../../src/scheduling/constants";
import { localTimeText } from "../../src/scheduling/appointmentTimeline";
import { appointmentWorkflowId } from "../../src/temporal/contracts";
import { AccountIdAttribute, AppointmentIdAttribute, AppointmentStartsAtAttribute, ResourceIdAttribute } from "../../src/temporal/searchAttributes";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { Receiver, signatureValid } from "../support/receiver";
import { book, conversationMessages, liveClinic, type LiveClinic, sleep } from "./bookingSupport";

const h = useHarness(test, { relay: true });

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** The contents of the booking's conversation, once it has at least `n` messages. */
async function messagesOnce(c: LiveClinic, displayId: number, n: number, timeoutMs = 20_000): Promise<string[]> {
  const messages = await eventually(
    () => conversationMessages(h, c.account, displayId),
    (m) => m.length >= n,
    "the conversation to have its messages",
    timeoutMs,
  );
  return messages.map((m) => m.content);
}

const bookFor = (c: LiveClinic, startsAt: string, extra: Record<string, unknown> = {}) =>
  book(c.api, { resource_id: c.resource.id, service_id: c.service.id, contact_id: c.contact.id, inbox_id: c.inbox.id, starts_at: startsAt, ...extra });

const when = (c: LiveClinic, iso: string) => localTimeText(Date.parse(iso), c.resource.timezone);
const workflowOf = (c: LiveClinic, id: number) =>
  h.deps.temporal.client.workflow.getHandle(appointmentWorkflowId(h.deps.temporal.installationId, c.account.id, id));

test("a booking with an inbox opens a conversation and is confirmed there; its workflow is findable by account, resource, id and start", async (t) => {
  const c = await liveClinic(h);
  const startsAt = inMs(2 * 24 * 60 * MINUTE);
  const appointment = await bookFor(c, startsAt);
  t.is(typeof appointment.conversation_id, "number");
  const conversation = await expectOk(accountApi(h, c.account).get(`/conversations/${appointment.conversation_id}`), "conversation");
  t.is(conversation.meta.sender.id, c.contact.id);

  t.deepEqual(await messagesOnce(c, appointment.conversation_id, 1), [`Your appointment with Dr. Now on ${when(c, startsAt)} is confirmed.`]);

  const description = await workflowOf(c, appointment.id).describe();
  t.is(description.status.name, "RUNNING", "it waits for the start");
  t.is(description.typedSearchAttributes.get(AccountIdAttribute), c.account.id);
  t.is(description.typedSearchAttributes.get(AppointmentIdAttribute), String(appointment.id));
  t.is(description.typedSearchAttributes.get(ResourceIdAttribute), String(c.resource.id));
  t.is((description.typedSearchAttributes.get(AppointmentStartsAtAttribute) as Date).toISOString(), new Date(startsAt).toISOString());
  t.is(await description.staticSummary(), `Appointment #${appointment.id} of account ${c.account.id}`);

  // The run's details follow the booking when it moves (ids, no client's name), and its memo names the request that moved it.
  const newStart = inMs(2 * 24 * 60 * MINUTE + 60 * MINUTE);
  const move = await h.request("PATCH", `/api/v1/accounts/${c.account.id}/scheduling/appointments/${appointment.id}`, {
    token: c.account.admin.token,
    body: { starts_at: newStart },
    headers: { "X-Request-Id": "move-request-31" },
  });
  t.is(move.status, 200);
  await eventually(
    () => workflowOf(c, appointment.id).describe(),
    (d) => (d.memo as { request_id?: string } | undefined)?.request_id === "move-request-31",
    "the memo to name the request that moved the booking",
  );
  const details = (await workflowOf(c, appointment.id).query<{ currentDetails?: string }>("__temporal_workflow_metadata")).currentDetails ?? "";
  t.true(details.includes(`resource #${c.resource.id}, ${when(c, newStart)}`), details);
  t.false(details.includes("Dana"), details);

  // Linking an existing conversation (by display id) confirms the next booking there too.
  const second = await book(c.api, {
    resource_id: c.resource.id,
    service_id: c.service.id,
    client_name: "Walk-in",
    starts_at: inMs(2 * 24 * 60 * MINUTE + 10 * MINUTE),
    conversation_id: appointment.conversation_id,
  });
  t.is(second.conversation_id, appointment.conversation_id);
  const messages = await messagesOnce(c, appointment.conversation_id, 3);
  t.is(messages.filter((m) => m.includes("is confirmed")).length, 2);

  // The client, who was told of the booking, hears of its cancellation; the workflow then ends.
  await c.api.post(`/appointments/${appointment.id}/cancel`, {});
  t.is((await messagesOnce(c, appointment.conversation_id, 4))[3], `Your appointment with Dr. Now on ${when(c, newStart)} has been cancelled.`);
  t.is(await workflowOf(c, appointment.id).result(), "cancelled");
});

test("an unpaid hold runs out: the booking is cancelled, the slot freed, the conversation told why, and the cancellation emitted", async (t) => {
  const c = await liveClinic(h);
  const startsAt = inMs(3 * 60 * MINUTE);
  const holdUntil = inMs(4 * SECOND);
  const appointment = await bookFor(c, startsAt, { hold_until: holdUntil });
  t.is(appointment.hold_expires_at, new Date(holdUntil).toISOString());
  t.deepEqual(await messagesOnce(c, appointment.conversation_id, 1), [
    `Your appointment with Dr. Now on ${when(c, startsAt)} is booked. Please make the prepayment by ${when(c, holdUntil)} to keep it.`,
  ]);

  const cancelled = await eventually(
    () => c.api.get(`/appointments/${appointment.id}`),
    (r) => r.body.payload.status === "cancelled",
    "the held appointment to be cancelled",
    30_000,
  );
  t.like(cancelled.body.payload, { status: "cancelled", payment_status: "cancelled", cancellation_reason: HOLD_EXPIRED_REASON });
  t.true(Date.parse(cancelled.body.payload.cancelled_at) >= Date.parse(holdUntil), "not before the hold ran out");

  const messages = await messagesOnce(c, appointment.conversation_id, 2);
  t.is(
    messages[1],
    `Your appointment with Dr. Now on ${when(c, startsAt)} has been cancelled because the prepayment was not received in time. The time is free again; write to us to book anew.`,
  );
  const events = await h.knex("events").where({ account_id: c.account.id }).where("name", "like", "appointment.%").orderBy("id").pluck("name");
  t.deepEqual(events, ["appointment.created", "appointment.updated", "appointment.cancelled"]);
  t.is(
    (await c.api.post("/appointments", { resource_id: c.resource.id, starts_at: startsAt, client_name: "Next", service_amount: 100 })).status,
    201,
    "the slot is free again",
  );
  t.is(await workflowOf(c, appointment.id).result(), "cancelled");
});

test("a prepayment in time ends the hold; a service that requires prepayment holds for the account's minutes", async (t) => {
  const c = await liveClinic(h);
  const holdUntil = inMs(4 * SECOND);
  const appointment = await bookFor(c, inMs(3 * 60 * MINUTE), { hold_until: holdUntil });
  const paid = await c.api.post(`/appointments/${appointment.id}/payments`, { amount: 3000, payment_method: "kaspi_qr" });
  t.like(paid.body.payload, { payment_status: "prepaid", hold_expires_at: null });

  await sleep(Date.parse(holdUntil) - Date.now() + 4 * SECOND);
  t.like((await c.api.get(`/appointments/${appointment.id}`)).body.payload, { status: "scheduled", payment_status: "prepaid" });
  t.false((await conversationMessages(h, c.account, appointment.conversation_id)).some((m) => m.content.includes("cancelled")));

  await c.api.patch("/settings", { prepayment_hold_minutes: 20 });
  await c.api.patch(`/services/${c.service.id}`, { prepayment_required: true });
  const before = Date.now();
  const held = await bookFor(c, inMs(5 * 60 * MINUTE));
  const expires = Date.parse(held.hold_expires_at);
  t.true(expires >= before + 20 * MINUTE && expires <= Date.now() + 20 * MINUTE);
  const prepaidUpFront = await bookFor(c, inMs(6 * 60 * MINUTE), { prepaid_amount: 1000, prepaid_payment_method: "cash" });
  t.is(prepaidUpFront.hold_expires_at, null, "nothing to hold for when the prepayment came with the booking");

  const invalid = await c.api.post("/appointments", {
    resource_id: c.resource.id,
    starts_at: inMs(7 * 60 * MINUTE),
    client_name: "X",
    service_amount: 1,
    hold_until: inMs(-MINUTE),
    hold_minutes: 5,
  });
  t.deepEqual([invalid.status, invalid.body.details], [422, { hold_until: ["cannot be given together with hold_minutes"] }]);
  const past = await c.api.post("/appointments", {
    resource_id: c.resource.id,
    starts_at: inMs(7 * 60 * MINUTE),
    client_name: "X",
    service_amount: 1,
    hold_until: inMs(-MINUTE),
  });
  t.deepEqual(past.body.details, { hold_until: ["must be in the future"] });
});

test("reminders come at the account's offsets and move with a reschedule; a moved or cancelled booking gets none for its old time", async (t) => {
  const c = await liveClinic(h);
  await c.api.patch("/settings", { reminder_offsets_minutes: [1] });

  // Due in three seconds, but moved two hours away first; another (with another resource) cancelled first.
  const other = await c.api.create("/resources", { name: "Dr. Other", timezone: c.resource.timezone });
  await c.api.patch(`/resources/${other.id}/work_rules`, { rules: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 0, end_minute: 1440 })) });
  await c.api.patch(`/services/${c.service.id}`, { prices: [c.resource, other].map((r) => ({ resource_id: r.id, price: 10_000 })) });
  const second = await bookFor(c, inMs(MINUTE + 3 * SECOND));
  const third = await bookFor(c, second.starts_at, { resource_id: other.id });
  await c.api.patch(`/appointments/${second.id}`, { starts_at: inMs(2 * 60 * MINUTE) });
  await c.api.post(`/appointments/${third.id}/cancel`, {});

  // Booked an hour ahead, then moved to just over a minute ahead: the reminder comes for the new time.
  const first = await bookFor(c, inMs(60 * MINUTE));
  await messagesOnce(c, first.conversation_id, 1);
  const newStart = inMs(MINUTE + 5 * SECOND);
  const moved = await c.api.patch(`/appointments/${first.id}`, { starts_at: newStart });
  t.is(moved.status, 200);
  const messages = await messagesOnce(c, first.conversation_id, 3, 30_000);
  t.deepEqual(messages.slice(1), [
    `Your appointment with Dr. Now has been moved to ${when(c, newStart)}.`,
    `Reminder: your appointment with Dr. Now is on ${when(c, newStart)}.`,
  ]);

  await sleep(Math.max(0, Date.parse(second.starts_at) - MINUTE + 3 * SECOND - Date.now()));
  for (const { conversation_id } of [second, third]) {
    const contents = (await conversationMessages(h, c.account, conversation_id)).map((m) => m.content);
    t.false(
      contents.some((m) => m.startsWith("Reminder")),
      contents.join(" | "),
    );
  }
  t.is(await workflowOf(c, third.id).result(), "cancelled", "a cancelled booking's workflow ends");
  await sleep(2 * SECOND);
  t.is((await conversationMessages(h, c.account, first.conversation_id)).filter((m) => m.content.startsWith("Reminder")).length, 1, "one reminder, once");
});

test("changing the reminder offsets re-plans upcoming bookings", async (t) => {
  const c = await liveClinic(h);
  // With the default 24 h and 2 h, a booking a minute ahead gets no reminder: both times had passed when it was made.
  const startsAt = inMs(MINUTE + 6 * SECOND);
  const appointment = await bookFor(c, startsAt);
  await messagesOnce(c, appointment.conversation_id, 1);
  await c.api.patch("/settings", { reminder_offsets_minutes: [1] });
  const messages = await messagesOnce(c, appointment.conversation_id, 2, 30_000);
  t.is(messages[1], `Reminder: your appointment with Dr. Now is on ${when(c, startsAt)}.`);
});

test("appointment events reach subscribed webhooks, signed, with the booking and what changed", async (t) => {
  const c = await liveClinic(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const events = ["appointment.created", "appointment.updated", "appointment.cancelled", "appointment.completed", "appointment.no_show"];
  const hook = await expectOk(accountApi(h, c.account).post("/webhooks", { url: receiver.url, subscriptions: events }), "webhook");
  const unknown = await h.request("POST", `/api/v1/accounts/${c.account.id}/webhooks`, {
    token: c.account.admin.token,
    body: { url: receiver.url, subscriptions: ["appointment.exploded"] },
  });
  t.is(unknown.status, 422);

  // A visit that has happened (recorded as such) can be completed.
  const a = await book(c.api, {
    resource_id: c.resource.id,
    service_id: c.service.id,
    client_name: "Hooked",
    starts_at: inMs(-60 * MINUTE),
    record_past_visit: true,
  });
  await c.api.post(`/appointments/${a.id}/payments`, { amount: 2500, payment_method: "card" });
  await c.api.patch(`/appointments/${a.id}`, { status: "completed" });
  const b = await book(c.api, { resource_id: c.resource.id, service_id: c.service.id, client_name: "Hooked", starts_at: inMs(5 * 60 * MINUTE) });
  await c.api.post(`/appointments/${b.id}/cancel`, {});

  // Each change is appointment.updated; a status change also raises its own event.
  const received = await receiver.waitFor((r) => r.length >= 7);
  await sleep(1000);
  const names = receiver.requests.map((r) => `${r.body.event}#${r.body.id}`);
  t.deepEqual(
    names.sort(),
    [
      `appointment.cancelled#${b.id}`,
      `appointment.completed#${a.id}`,
      `appointment.created#${a.id}`,
      `appointment.created#${b.id}`,
      `appointment.updated#${a.id}`,
      `appointment.updated#${a.id}`,
      `appointment.updated#${b.id}`,
    ].sort(),
  );
  for (const request of received) t.true(signatureValid(request, hook.payload.webhook.secret));
  const updated = receiver.requests.find((r) => r.body.event === "appointment.updated" && r.body.status === "scheduled")!.body;
  t.like(updated, { id: a.id, payment_status: "prepaid", settlement_amount: 2500, account: { id: c.account.id } });
  t.deepEqual(
    updated.changed_attributes.filter((change: Record<string, unknown>) => "settlement_amount" in change),
    [{ settlement_amount: { previous_value: 0, current_value: 2500 } }],
  );
  const deliveries = await expectOk(accountApi(h, c.account).get(`/webhooks/${hook.payload.webhook.id}/deliveries`), "deliveries");
  t.is(deliveries.payload.filter((d: { status: string }) => d.status === "delivered").length, 7, "the delivery log has them");
});
