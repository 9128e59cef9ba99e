/*
 * Several processes of each role on one database and one Temporal server, as docs/scaling.md runs
 * them: two API processes, two workers (each with its relay). Work goes through both APIs while an
 * API and a worker are killed and started again; every outcome a user sees happens exactly once.
 */
import { request as httpRequest } from "node:http";
import test from "ava";
import { planTimers } from "../../src/conversations/timers";
import { clinic, at } from "../scheduling/bookingSupport";
import { createInbox } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { createAccount, type TestAccount } from "../support/factories";
import { startHarness, type Harness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { Receiver } from "../support/receiver";
import { startRole, through, type RoleProcess } from "../support/serviceProcesses";
import { accountCall, deliveryIdsByMessage, fleetEnv, openConversation as conversation, startFleet } from "../support/fleet";
import { subscribeAgent, subscribeVisitor } from "../realtime/world";

let database: OwnDatabase;
let h: Harness;
let env: Record<string, string>;
const apis: RoleProcess[] = [];
const workers: RoleProcess[] = [];
let passed = true;

test.before(async (t) => {
  t.timeout(150_000);
  database = await createOwnDatabase("scale_out");
  // The harness runs no worker and no relay: it sets up data and reads rows; the processes do the work.
  h = await startHarness({ databaseUrl: database.url, poolMax: 3 });
  env = fleetEnv(database.url);
  const fleet = await startFleet(env);
  apis.push(...fleet.apis);
  workers.push(...fleet.workers);
});

test.afterEach.always((t) => {
  if (!t.passed) passed = false;
});

test.after.always(async () => {
  if (!passed) for (const p of [...apis, ...workers]) console.error(`--- ${p.role} ---\n${p.output()}`);
  await Promise.all([...apis, ...workers].map((p) => p.stop()));
  await h?.close();
  await database?.drop();
});

const apiOf = (i: number) => through(h, apis[i % apis.length]!.baseUrl!);
async function conversationRowId(account: TestAccount, displayId: number): Promise<number> {
  return (await h.knex("conversations").where({ account_id: account.id, display_id: displayId }).first("id")).id;
}

test.serial("messages through both APIs while an API and a worker are killed: one delivery each, one auto-reply, one auto-resolve", async (t) => {
  t.timeout(150_000);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const account = await createAccount(apiOf(0));
  await accountCall(apiOf(0), account, "POST", "/webhooks", { url: receiver.url, subscriptions: ["message_created"] });
  await accountCall(apiOf(1), account, "POST", "/automation_rules", {
    name: "auto-reply",
    event_name: "message_created",
    conditions: [{ attribute_key: "message_type", filter_operator: "equal_to", values: ["incoming"], query_operator: null }],
    actions: [{ action_name: "send_message", action_params: ["auto-reply"] }],
  });
  await accountCall(apiOf(1), account, "PATCH", "", { auto_resolve_after: 10 });
  const inbox = await createInbox(apiOf(0), account);
  const chats = await Promise.all([0, 1, 2, 3].map((i) => conversation(apiOf(i), account, inbox.id)));
  // Idle conversations whose auto-resolve deadlines fall while a worker is down.
  const idle = await Promise.all([0, 1, 2].map((i) => conversation(apiOf(i), account, inbox.id)));
  const post = (via: Harness, i: number) =>
    accountCall(via, account, "POST", `/conversations/${chats[i % chats.length]}/messages`, { content: `hello ${i}`, message_type: "incoming" });
  const batch = (from: number, count: number, via: (i: number) => Harness) =>
    Promise.all(Array.from({ length: count }, (_, k) => post(via(from + k), from + k)));

  await batch(0, 12, apiOf);
  // Every event so far dispatched, so the timers planned next are not re-planned by a late conversation_created.
  await eventually(
    () => h.knex("events").where("account_id", account.id).whereNull("dispatched_at").count({ n: "*" }).first(),
    (row) => Number(row!.n) === 0,
    "the setup's events to be dispatched",
    30_000,
  );
  const idleIds = await Promise.all(idle.map((displayId) => conversationRowId(account, displayId)));
  await h
    .knex("conversations")
    .whereIn("id", idleIds)
    .update({ last_activity_at: new Date(Date.now() + 4000 - 10 * 60_000) });
  await planTimers(h.deps, idleIds);

  // No request is in flight to the API killed: a request it took but never answered could not be retried safely.
  const [api0, worker0] = [apis[0]!, workers[0]!];
  await Promise.all([api0.kill("SIGKILL"), worker0.kill("SIGKILL")]);
  // While the killed ones start again, the surviving API takes the traffic.
  const [[api0Again, worker0Again]] = await Promise.all([
    Promise.all([startRole("api", env), startRole("worker", env)]),
    batch(12, 12, () => through(h, apis[1]!.baseUrl!)),
  ]);
  apis[0] = api0Again;
  workers[0] = worker0Again;
  // Then the other worker is stopped as a rolling restart stops it, mid-traffic; the restarted one carries on alone.
  const posting = batch(24, 6, apiOf);
  const stopping = Date.now();
  await workers[1]!.stop();
  t.true(Date.now() - stopping < 20_000, `the worker took ${Date.now() - stopping} ms to stop`);
  workers.pop();
  await posting;
  await batch(30, 6, apiOf);

  // Every message_created (the 36 posted and their auto-replies) reaches the receiver under one delivery id.
  const messageIds = async () =>
    (await h
      .knex("messages")
      .whereIn("conversation_id", await Promise.all(chats.map((id) => conversationRowId(account, id))))
      .whereIn("message_type", [0, 1])
      .pluck("id")) as number[];
  await eventually(messageIds, (ids) => ids.length === 72, "36 messages and 36 auto-replies", 60_000);
  const ids = await messageIds();
  await receiver.waitFor((requests) => new Set(requests.map((r) => r.body.id)).size >= ids.length, 60_000);
  for (const request of receiver.requests) t.is(request.body.event, "message_created");
  const deliveryIds = deliveryIdsByMessage(receiver.requests);
  t.deepEqual(
    [...deliveryIds.keys()].sort((a, b) => a - b),
    [...ids].sort((a, b) => a - b),
  );
  t.true(
    [...deliveryIds.values()].every((seen) => seen.size === 1),
    "one delivery id per message",
  );
  // Each delivery row says delivered (an attempt records its outcome just after the receiver answers).
  await eventually(
    () => h.knex("webhook_deliveries").where("account_id", account.id).whereNot("status", "delivered").count({ n: "*" }).first(),
    (row) => Number(row!.n) === 0,
    "every delivery to be recorded as delivered",
    30_000,
  );
  t.is(Number((await h.knex("webhook_deliveries").where("account_id", account.id).count({ n: "*" }).first())!.n), ids.length);

  // One auto-reply per incoming message, however many relays and workers saw its event.
  const replies = await h.knex("messages").where({ account_id: account.id, content: "auto-reply" }).count({ n: "*" }).first();
  t.is(Number(replies!.n), 36);

  // Each idle conversation resolved once, with one activity message saying why.
  await eventually(
    () => h.knex("conversations").whereIn("id", idleIds).where("status", "resolved").count({ n: "*" }).first(),
    (row) => Number(row!.n) === idleIds.length,
    "the idle conversations to be auto-resolved",
    60_000,
  );
  for (const id of idleIds) {
    const why = await h.knex("messages").where("conversation_id", id).whereLike("content", "%of inactivity").count({ n: "*" }).first();
    t.is(Number(why!.n), 1);
  }
});

test.serial("30 concurrent bookings of one slot through both APIs: one is booked, the others refused", async (t) => {
  const { account, resource, service, contact } = await clinic(h);
  const body = { resource_id: resource.id, service_id: service.id, contact_id: contact.id, starts_at: at("10:00") };
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      apiOf(i).request("POST", `/api/v1/accounts/${account.id}/scheduling/appointments`, { token: account.admin.token, body }),
    ),
  );
  const statuses = answers.map((answer) => answer.status);
  t.is(statuses.filter((status) => status === 201).length, 1, JSON.stringify(statuses));
  t.true(
    statuses.every((status) => status === 201 || (status >= 400 && status < 500)),
    JSON.stringify(statuses),
  );
  const booked = await h.knex("scheduling_appointments").where("resource_id", resource.id).whereNot("status", "cancelled").count({ n: "*" }).first();
  t.is(Number(booked!.n), 1);
});

test.serial("an account suspended through one API process is refused by the other within the documented bound", async (t) => {
  const account = await createAccount(apiOf(0));
  const path = `/api/v1/accounts/${account.id}/inboxes`;
  // Both processes have the token in their caches.
  for (const i of [0, 1]) t.is((await apiOf(i).request("GET", path, { token: account.admin.token })).status, 200);
  const suspended = await apiOf(0).request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { status: "suspended" } });
  t.is(suspended.status, 200);
  const since = Date.now();
  const refused = await eventually(
    () => apiOf(1).request("GET", path, { token: account.admin.token }),
    (answer) => answer.status === 401,
    "the other process to refuse the suspended account",
    5000,
  );
  t.deepEqual(refused.body, { error: "Account is suspended" });
  // docs/scaling.md: refused once the change's notification arrives, well within a second.
  t.true(Date.now() - since < 1000, `refused after ${Date.now() - since} ms`);
});

test.serial("an agent on one API process's /cable and a visitor on the other's each get a message once", async (t) => {
  const account = await createAccount(apiOf(0));
  const inbox = await createInbox(apiOf(0), account);
  const displayId = await conversation(apiOf(1), account, inbox.id);
  const { pubsub_token: visitorToken } = await h
    .knex("conversations")
    .join("contact_inboxes", "contact_inboxes.id", "conversations.contact_inbox_id")
    .where({ "conversations.account_id": account.id, "conversations.display_id": displayId })
    .first("contact_inboxes.pubsub_token");
  const agent = await subscribeAgent(h, account.id, account.admin.id, apis[0]!.baseUrl!);
  const visitor = await subscribeVisitor(apis[1]!.baseUrl!, visitorToken);
  t.teardown(() => {
    agent.close();
    visitor.close();
  });
  await accountCall(apiOf(1), account, "POST", `/conversations/${displayId}/messages`, { content: "across processes" });
  const isIt = (data: any) => data.content === "across processes";
  for (const cable of [agent, visitor]) await cable.next("message.created", isIt);
  // Time for a second push, were there one.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const cable of [agent, visitor]) t.is(cable.received.filter((pushed) => pushed.event === "message.created" && isIt(pushed.data)).length, 1);
});

test.serial("an API process stopped with SIGTERM answers the request it was reading, then exits; the other carries on", async (t) => {
  const account = await createAccount(apiOf(0));
  const inbox = await createInbox(apiOf(0), account);
  const displayId = await conversation(apiOf(0), account, inbox.id);
  const stopped = apis[0]!;
  const body = JSON.stringify({ content: "sent across a rolling restart", message_type: "incoming" });
  const { port } = new URL(stopped.baseUrl!);
  const request = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: `/api/v1/accounts/${account.id}/conversations/${displayId}/messages`,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), api_access_token: account.admin.token },
  });
  const answered = new Promise<number>((resolve, reject) => {
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on("error", reject);
  });
  // The request is under way (its headers are in, its body is not) when the process is told to stop.
  request.write(body.slice(0, 10));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const exited = stopped.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  request.end(body.slice(10));
  t.is(await answered, 200);
  await exited;
  t.false(stopped.running());
  const row = await h.knex("messages").where({ account_id: account.id, content: "sent across a rolling restart" }).count({ n: "*" }).first();
  t.is(Number(row!.n), 1);
  t.is((await apiOf(1).request("GET", `/api/v1/accounts/${account.id}/conversations/${displayId}`, { token: account.admin.token })).status, 200);
});
