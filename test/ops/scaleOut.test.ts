/*
 * Several processes of each role on one database and one Temporal server, as docs/scaling.md runs
 * them: two API processes, two workers (each with its relay). Work goes through both APIs while an
 * API and a worker are killed and started again; every outcome a user sees happens exactly once.
 */
import { request as httpRequest } from "node:http";
import test from "ava";
import type { Knex } from "knex";
import { planTimers } from "../../src/conversations/timers";
import { at, clinic, conversationMessages, liveClinic } from "../scheduling/bookingSupport";
import { schedulingApi } from "../scheduling/support";
import { createInbox } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { createAccount, type TestAccount } from "../support/factories";
import { startHarness, type Harness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { Receiver } from "../support/receiver";
import { startRole, through } from "../support/serviceProcesses";
import { postIncoming, postThroughChaos, tallyDeliveries } from "../support/chaos";
import { accountCall, fleetEnv, openConversation as conversation, startFleet, type Fleet } from "../support/fleet";
import { subscribeAgent, subscribeVisitor } from "../realtime/world";

let database: OwnDatabase;
let h: Harness;
let fleet: Fleet;
let passed = true;

test.before(async (t) => {
  t.timeout(150_000);
  database = await createOwnDatabase("scale_out");
  // The harness runs no worker and no relay: it sets up data and reads rows; the processes do the work.
  h = await startHarness({ databaseUrl: database.url, poolMax: 3 });
  fleet = await startFleet(fleetEnv(database.url));
});

test.afterEach.always((t) => {
  if (!t.passed) passed = false;
});

test.after.always(async () => {
  const all = fleet ? [...fleet.apis, ...fleet.workers] : [];
  if (!passed) for (const p of all) console.error(`--- ${p.role} ---\n${p.output()}`);
  await Promise.all(all.map((p) => p.stop()));
  await h?.close();
  await database?.drop();
});

const apiOf = (i: number) => through(h, fleet.apis[i % fleet.apis.length]!.baseUrl!);
async function conversationRowIds(account: TestAccount, displayIds: number[]): Promise<number[]> {
  return h.knex("conversations").where("account_id", account.id).whereIn("display_id", displayIds).pluck("id");
}
const count = async (query: Knex.QueryBuilder) => Number((await query.count({ n: "*" }).first())!.n);
/** As issue 36 asks: enough that a kill lands mid-stream, with hundreds of events on either side of it. */
const MESSAGES = 1000;
/**
 * Every tenth message goes to an account with an auto-reply rule: each rule run is two workflows and
 * three activities, so a hundred of them prove exactly-once as well as a thousand would, in a time
 * `npm test` can afford on a small machine.
 */
const REPLY_EVERY = 10;

test.serial("1,000 messages through both APIs while an API and a worker are killed: one delivery each, one auto-reply, one auto-resolve", async (t) => {
  // Under three minutes on a loaded 2-core machine; the margin keeps a busier moment from failing it.
  t.timeout(240_000);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const [plain, replying] = [await createAccount(apiOf(0)), await createAccount(apiOf(1))];
  for (const account of [plain, replying])
    await accountCall(apiOf(account.id), account, "POST", "/webhooks", { url: receiver.url, subscriptions: ["message_created"] });
  await accountCall(apiOf(1), replying, "POST", "/automation_rules", {
    name: "auto-reply",
    event_name: "message_created",
    conditions: [{ attribute_key: "message_type", filter_operator: "equal_to", values: ["incoming"], query_operator: null }],
    actions: [{ action_name: "send_message", action_params: ["auto-reply"] }],
  });
  await accountCall(apiOf(1), replying, "PATCH", "", { auto_resolve_after: 10 });
  const conversationsOf = async (account: TestAccount, n: number) => {
    const inbox = await createInbox(apiOf(0), account);
    return Promise.all(Array.from({ length: n }, (_, i) => conversation(apiOf(i), account, inbox.id)));
  };
  const [plainChats, replyingChats] = [await conversationsOf(plain, 16), await conversationsOf(replying, 4)];
  // Idle conversations whose auto-resolve deadlines fall while a worker is down.
  const idle = await conversationsOf(replying, 10);
  const [chatIds, idleIds] = [
    [...(await conversationRowIds(plain, plainChats)), ...(await conversationRowIds(replying, replyingChats))],
    await conversationRowIds(replying, idle),
  ];
  const post = (via: Harness, i: number) =>
    i % REPLY_EVERY
      ? postIncoming(via, plain, plainChats[i % plainChats.length]!, `hello ${i}`)
      : postIncoming(via, replying, replyingChats[(i / REPLY_EVERY) % replyingChats.length]!, `hello ${i}`);

  let stoppedIn = 0;
  await postThroughChaos(h, fleet, MESSAGES, post, {
    async afterFirstThird() {
      // Their events dispatched, so the timers planned next are not re-planned by a late conversation_created.
      await eventually(
        () => count(h.knex("events").whereIn("conversation_id", idleIds).whereNull("dispatched_at")),
        (n) => n === 0,
        "the idle conversations' events to be dispatched",
        30_000,
      );
      await h
        .knex("conversations")
        .whereIn("id", idleIds)
        .update({ last_activity_at: new Date(Date.now() + 4000 - 10 * 60_000) });
      await planTimers(h.deps, idleIds);
    },
    // The other worker is stopped mid-traffic as a rolling restart stops it; the restarted one carries on alone.
    async duringLastThird() {
      const stopping = Date.now();
      await fleet.workers[1]!.stop();
      stoppedIn = Date.now() - stopping;
    },
  });
  t.true(stoppedIn < 20_000, `the worker took ${stoppedIn} ms to stop`);
  // A second worker again, for the tests after this one.
  fleet.workers[1] = await startRole("worker", fleet.env);

  // Every message_created (the 1,000 posted and the auto-replies) reaches the receiver under one delivery id.
  const messageIds = async () => (await h.knex("messages").whereIn("conversation_id", chatIds).whereIn("message_type", [0, 1]).pluck("id")) as number[];
  const replies = MESSAGES / REPLY_EVERY;
  await eventually(messageIds, (ids) => ids.length === MESSAGES + replies, "the messages and the auto-replies", 90_000);
  const ids = await messageIds();
  const wanted = new Set(ids);
  await receiver.waitFor((requests) => new Set(requests.map((r) => r.body.id)).size >= wanted.size, 90_000);
  t.deepEqual(
    receiver.requests.filter((request) => request.body.event !== "message_created" || !wanted.has(request.body.id)),
    [],
    "nothing but the messages' message_created",
  );
  const delivered = tallyDeliveries(receiver.requests, wanted);
  t.like(delivered, { delivered: wanted.size, lost: 0, duplicated: 0 });
  // Each delivery row says delivered (an attempt records its outcome just after the receiver answers).
  await eventually(
    () => count(h.knex("webhook_deliveries").whereIn("account_id", [plain.id, replying.id]).whereNot("status", "delivered")),
    (n) => n === 0,
    "every delivery to be recorded as delivered",
    30_000,
  );
  t.is(await count(h.knex("webhook_deliveries").whereIn("account_id", [plain.id, replying.id])), ids.length);

  // One auto-reply per incoming message in every conversation of the replying account (none in the
  // other), however many relays and workers saw its event.
  const perConversation = await h
    .knex("messages")
    .whereIn("conversation_id", chatIds)
    .groupBy("conversation_id")
    .select("conversation_id")
    .select(h.knex.raw("count(*) filter (where message_type = 0)::int as incoming"))
    .select(h.knex.raw("count(*) filter (where message_type = 1 and content = 'auto-reply')::int as replies"));
  t.is(
    perConversation.reduce((sum, row) => sum + row.incoming, 0),
    MESSAGES,
  );
  t.is(
    perConversation.reduce((sum, row) => sum + row.replies, 0),
    replies,
  );
  const replyingIds = new Set(chatIds.slice(plainChats.length));
  for (const row of perConversation) t.is(row.replies, replyingIds.has(Number(row.conversation_id)) ? row.incoming : 0, `conversation ${row.conversation_id}`);

  // Each idle conversation resolved once, with one activity message saying why.
  await eventually(
    () => count(h.knex("conversations").whereIn("id", idleIds).where("status", "resolved")),
    (n) => n === idleIds.length,
    "the idle conversations to be auto-resolved",
    60_000,
  );
  const why = await h
    .knex("messages")
    .whereIn("conversation_id", idleIds)
    .whereLike("content", "%of inactivity")
    .groupBy("conversation_id")
    .select("conversation_id", h.knex.raw("count(*)::int as n"));
  t.deepEqual(
    why.map((row) => [Number(row.conversation_id), row.n]).sort((a, b) => a[0]! - b[0]!),
    [...idleIds].sort((a, b) => a - b).map((id) => [id, 1]),
  );
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

test.serial("bookings made through both APIs with two workers running: one reminder each, at its time", async (t) => {
  t.timeout(90_000);
  const c = await liveClinic(apiOf(0));
  await c.api.patch("/settings", { reminder_offsets_minutes: [1] });
  const others = await Promise.all(
    [1, 2, 3].map(async (n) => {
      const resource = await c.api.create("/resources", { name: `Dr. Also ${n}`, timezone: c.resource.timezone });
      const rules = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 0, end_minute: 1440 }));
      await c.api.patch(`/resources/${resource.id}/work_rules`, { rules });
      return resource;
    }),
  );
  const resources = [c.resource, ...others];
  await c.api.patch(`/services/${c.service.id}`, { prices: resources.map((resource) => ({ resource_id: resource.id, price: 10_000 })) });
  // The reminder (a minute before the start) falls due seconds from now, in whichever worker runs the booking's workflow.
  const startsAt = new Date(Date.now() + 60_000 + 15_000).toISOString();
  const booked = await Promise.all(
    resources.map((resource, i) =>
      schedulingApi(apiOf(i), c.account).create("/appointments", {
        resource_id: resource.id,
        service_id: c.service.id,
        contact_id: c.contact.id,
        inbox_id: c.inbox.id,
        starts_at: startsAt,
      }),
    ),
  );
  const reminders = async () =>
    Promise.all(
      booked.map(
        async (appointment) => (await conversationMessages(h, c.account, appointment.conversation_id)).filter((m) => m.content.startsWith("Reminder")).length,
      ),
    );
  await eventually(reminders, (counts) => counts.every((n) => n >= 1), "every booking's reminder", 60_000);
  // Time for a second reminder, were there one.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  t.deepEqual(await reminders(), [1, 1, 1, 1]);
  const sent = await h.knex("events").where({ account_id: c.account.id, name: "appointment.reminder_sent" }).select(h.knex.raw("(payload->>'id')::int as id"));
  t.deepEqual(
    sent.map((row) => row.id).sort((a, b) => a - b),
    booked.map((appointment) => appointment.id).sort((a, b) => a - b),
  );
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
  const agent = await subscribeAgent(h, account.id, account.admin.id, fleet.apis[0]!.baseUrl!);
  const visitor = await subscribeVisitor(fleet.apis[1]!.baseUrl!, visitorToken);
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
  const stopped = fleet.apis[0]!;
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
