import test from "ava";
import { WorkflowNotFoundError } from "@temporalio/client";
import { eventConsumers } from "../../src/runtime";
import { EventRelay } from "../../src/events/relay";
import { recordEvent, type EventName } from "../../src/events/outbox";
import { webhookDeliveryWorkflowId } from "../../src/temporal/contracts";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, quickRetries, useHarness, webhookLanes } from "../support/harness";
import { eventually } from "../support/eventually";
import { Receiver, signatureValid } from "../support/receiver";
import { openConversation, postMessage, realtimeWorld } from "../realtime/world";

const h = useHarness(test, { relay: true, settings: { delivery: quickRetries() } });

async function subscribe(account: TestAccount, url: string, subscriptions: string[] = ["contact_created"]) {
  const response = await accountApi(h, account).post("/webhooks", { url, subscriptions });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.payload.webhook as { id: number; secret: string };
}

/** Stands for a domain change that emits an event: the row is written in a transaction of its own. */
async function emit(account: TestAccount, name: EventName, payload: Record<string, unknown>) {
  await h.knex.transaction((trx) => recordEvent(trx, { accountId: account.id, name, payload: { ...payload, event: name } }));
}

async function deliveries(account: TestAccount, webhookId: number) {
  return (await accountApi(h, account).get(`/webhooks/${webhookId}/deliveries`)).body;
}

test("an event arrives once, signed, with the payload and Chatwoot's headers", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const webhook = await subscribe(account, receiver.url);

  await emit(account, "contact_created", { id: 7, name: "Ann", account: { id: account.id, name: "Test Account" } });
  const [request] = await receiver.waitFor((r) => r.length >= 1);
  t.deepEqual(request!.body, { id: 7, name: "Ann", account: { id: account.id, name: "Test Account" }, event: "contact_created" });
  t.is(request!.headers["content-type"], "application/json");
  t.true(signatureValid(request!, webhook.secret));
  t.false(signatureValid(request!, "another-secret"));
  t.true(Math.abs(Number(request!.headers["x-chatwoot-timestamp"]) - Date.now() / 1000) < 30);

  const log = await eventually(
    () => deliveries(account, webhook.id),
    (body) => body.payload[0]?.status === "delivered",
    "the delivery to succeed",
  );
  t.is(log.meta.count, 1);
  t.like(log.payload[0], {
    id: request!.headers["x-chatwoot-delivery"],
    event: "contact_created",
    status: "delivered",
    attempts: 1,
    last_response_code: 200,
    last_error: null,
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.is(receiver.requests.length, 1);
});

test("a receiver answering 500 twice then 200 gets exactly one success after three attempts", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver((attempt) => (attempt <= 2 ? 500 : 200)).start();
  t.teardown(() => receiver.stop());
  const webhook = await subscribe(account, receiver.url);

  await emit(account, "contact_created", { id: 1 });
  await receiver.waitFor((r) => r.length >= 3);
  const log = await eventually(
    () => deliveries(account, webhook.id),
    (body) => body.payload[0]?.status === "delivered",
    "the delivery to succeed after retries",
  );
  t.like(log.payload[0], { status: "delivered", attempts: 3, last_response_code: 200 });
  const ids = new Set(receiver.requests.map((r) => r.headers["x-chatwoot-delivery"]));
  t.is(ids.size, 1, "every attempt carries the same delivery id");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.is(receiver.requests.length, 3);

  // What an operator reads in the Temporal UI: the first attempt failed in the webhook's lane, so the
  // delivery went on in a workflow of its own.
  const handle = h.deps.temporal.client.workflow.getHandle(webhookDeliveryWorkflowId(h.deps.temporal.installationId, log.payload[0].id));
  t.is(await handle.result(), "delivered");
  const { currentDetails } = await handle.query<{ currentDetails: string }>("__temporal_workflow_metadata");
  t.is(currentDetails, `Delivery ${log.payload[0].id}: delivered on attempt 3`);
  const described = await handle.describe();
  t.regex(
    (await described.staticSummary()) ?? "",
    new RegExp(
      `^contact_created → http://127\\.0\\.0\\.1:\\d+/hook \\(account webhook ${webhook.id}, account ${account.id}\\): retries after "500 Internal Server Error"$`,
    ),
  );
});

test("a receiver that is down for a while gets every event once it is back", async (t) => {
  const account = await createAccount(h);
  const probe = await new Receiver().start();
  const url = probe.url;
  const port = Number(new URL(url).port);
  await probe.stop();
  const webhook = await subscribe(account, url);

  for (let i = 1; i <= 3; i++) await emit(account, "contact_created", { id: i });
  const failing = await eventually(
    () => deliveries(account, webhook.id),
    (body) => body.payload.length === 3 && body.payload.every((d: any) => d.attempts >= 1),
    "three failing deliveries",
  );
  t.true(failing.payload.every((d: any) => d.status === "pending" && d.last_error));

  const receiver = await new Receiver().start(port);
  t.teardown(() => receiver.stop());
  await receiver.waitFor((r) => new Set(r.map((x) => x.body.id)).size === 3, 30_000);
  const log = await eventually(
    () => deliveries(account, webhook.id),
    (body) => body.payload.every((d: any) => d.status === "delivered"),
    "every delivery to succeed",
  );
  t.true(log.payload.every((d: any) => d.status === "delivered"));
  t.deepEqual(receiver.requests.map((r) => r.body.id).sort(), [1, 2, 3]);
});

test("a permanent refusal (410) stops retrying and the delivery is failed", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver(() => 410).start();
  t.teardown(() => receiver.stop());
  const webhook = await subscribe(account, receiver.url);

  await emit(account, "contact_created", { id: 1 });
  const log = await eventually(
    () => deliveries(account, webhook.id),
    (body) => body.payload[0]?.status === "failed",
    "the delivery to fail",
  );
  t.like(log.payload[0], { status: "failed", attempts: 1, last_response_code: 410, last_error: "410 Gone" });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.is(receiver.requests.length, 1);

  const again = await h.request("POST", `/api/v1/accounts/${account.id}/webhooks/${webhook.id}/deliveries/${log.payload[0].id}/redeliver`, {
    token: account.admin.token,
  });
  t.is(again.status, 200);
  t.is(again.body.payload.status, "pending");
  receiver.setResponder(() => 200);
  await receiver.waitFor((r) => r.length >= 2);
  t.is(receiver.requests[1]!.headers["x-chatwoot-delivery"], log.payload[0].id);
  const after = await eventually(
    () => deliveries(account, webhook.id),
    (body) => body.payload[0]?.status === "delivered",
    "the redelivery to succeed",
  );
  t.is(after.payload[0].status, "delivered");
});

test("a message event without its conversation still reaches its webhooks (the realtime push skips it)", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId } = await openConversation(h, world, world.ownInbox.id);
  const message = await postMessage(h, world, displayId, { content: "hello" });
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  await subscribe(world.account, receiver.url, ["message_created"]);
  // A real message's id, but a payload that lacks the conversation the realtime push reads.
  await emit(world.account, "message_created", { id: message.id, marker: "bare" });
  const requests = await receiver.waitFor((r) => r.some((request) => request.body.marker === "bare"));
  t.deepEqual(requests.find((request) => request.body.marker === "bare")!.body, { id: message.id, marker: "bare", event: "message_created" });
});

test("nothing is delivered for an event the webhook does not subscribe to", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const webhook = await subscribe(account, receiver.url, ["message_created"]);

  await emit(account, "contact_created", { id: 1 });
  await emit(account, "message_created", { id: 2 });
  await receiver.waitFor((r) => r.length >= 1);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.deepEqual(
    receiver.requests.map((r) => r.body.event),
    ["message_created"],
  );
  t.is((await deliveries(account, webhook.id)).meta.count, 1);
});

test("an event committed while no relay ran (a crash before dispatch) is delivered after restart", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  await subscribe(account, receiver.url);

  // Written straight to the outbox without NOTIFY, as if the process died right after its commit.
  const [row] = await h
    .knex("events")
    .insert({ account_id: account.id, name: "contact_created", payload: JSON.stringify({ id: 99, event: "contact_created" }) })
    .returning("id");
  const restarted = new EventRelay(h.deps, { sweepIntervalMs: 200, consumers: eventConsumers() });
  await restarted.start();
  t.teardown(() => restarted.stop());

  await receiver.waitFor((r) => r.length >= 1);
  t.is(receiver.requests[0]!.body.id, 99);
  const event = await eventually(
    () => h.knex("events").where("id", row.id).first(),
    (e) => Boolean(e.dispatched_at),
    "the event's dispatch",
  );
  t.truthy(event.dispatched_at);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.is(receiver.requests.length, 1, "two relays never deliver one event twice");
});

test("an event handed over again by a relay that died before marking it dispatched arrives once", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  await subscribe(account, receiver.url);
  await emit(account, "contact_created", { id: 7 });
  await receiver.waitFor((r) => r.length >= 1);
  const event = await eventually(
    () => h.knex("events").where("account_id", account.id).first(),
    (e) => Boolean(e.dispatched_at),
    "the event's dispatch",
  );

  // Other files' commits wake the harness's relay too, so either relay may take the event again.
  const relay = new EventRelay(h.deps, { consumers: eventConsumers() });
  const handedOverAgain = async () => {
    await relay.drain();
    await eventually(
      () => h.knex("events").where("id", event.id).first(),
      (e) => Boolean(e.dispatched_at),
      "the event's dispatch again",
    );
  };
  // Died after handing the delivery to its lane and recording that, before marking the event.
  await h.knex("events").where("id", event.id).update({ dispatched_at: null });
  await handedOverAgain();
  // Died between the hand-over and recording it.
  await h.knex("webhook_deliveries").where("event_id", event.id).update({ workflow_started_at: null });
  await h.knex("events").where("id", event.id).update({ dispatched_at: null });
  await handedOverAgain();

  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.deepEqual(
    receiver.requests.map((r) => r.body.id),
    [7],
  );
});

test("a burst to one webhook goes through the webhook's lane: each event arrives once, and none that arrived needs a workflow of its own", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const webhook = await subscribe(account, receiver.url);

  const n = 60;
  await Promise.all(Array.from({ length: n }, (_, i) => emit(account, "contact_created", { id: 1000 + i })));
  await receiver.waitFor((r) => r.length >= n);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.deepEqual(
    receiver.requests.map((r) => r.body.id).sort(),
    Array.from({ length: n }, (_, i) => 1000 + i),
  );

  // The burst may straddle two spans, so two lanes; each is found by its webhook in the Temporal UI.
  const lanes = await eventually(
    () => webhookLanes(h, webhook.id),
    (found) => found.length > 0,
    "the webhook's lanes to be listed",
  );
  t.true(lanes.length >= 1 && lanes.length <= 2, `${lanes.length} lanes`);
  for (const lane of lanes) {
    t.regex(lane.workflowId, new RegExp(`^webhook-lane-${h.deps.temporal.installationId}-account-webhook-${webhook.id}-\\d{8}T\\d{6}Z$`));
    const described = await h.deps.temporal.client.workflow.getHandle(lane.workflowId).describe();
    t.regex((await described.staticSummary()) ?? "", new RegExp(`^Deliveries to ${receiver.url} \\(account webhook ${webhook.id}, account ${account.id}\\)$`));
  }
  const log = await eventually(
    () => deliveries(account, webhook.id),
    (body) => body.payload.every((d: { status: string }) => d.status === "delivered"),
    "every delivery to succeed",
  );
  t.is(log.meta.count, n);
  for (const delivery of log.payload.slice(0, 5)) {
    await t.throwsAsync(h.deps.temporal.client.workflow.getHandle(webhookDeliveryWorkflowId(h.deps.temporal.installationId, delivery.id)).describe(), {
      instanceOf: WorkflowNotFoundError,
    });
  }
});
