import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { createApp } from "../../src/app";
import type { AppDeps } from "../../src/deps";
import { attachRealtime } from "../../src/realtime";
import { closeServer, eventConsumers } from "../../src/runtime";
import { EventRelay } from "../../src/events/relay";
import { eventually } from "../support/eventually";
import { type Harness, startHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { openConversation, postMessage, realtimeWorld, subscribeAgent, subscribeVisitor } from "./world";

/*
 * Two API processes on one database of the file's own (no other file's relay drains it), neither
 * running the relay until the test starts one: what reaches a subscriber came through the outbox.
 */
let db: OwnDatabase;
let first: Harness;
let second: Harness;
let relay: EventRelay | undefined;

test.before(async () => {
  db = await createOwnDatabase("realtime_delivery");
  first = await startHarness({ databaseUrl: db.url, realtime: true });
  second = await startHarness({ databaseUrl: db.url, realtime: true });
});

test.after.always(async () => {
  await relay?.stop();
  await first?.close();
  await second?.close();
  await db?.drop();
});

/** An API process of its own (the HTTP server and /cable), on this port or a new one. */
async function apiProcess(deps: AppDeps, port = 0): Promise<{ server: Server; baseUrl: string; port: number }> {
  const server = createApp(deps).listen(port, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  await attachRealtime(server, deps.knex);
  const bound = (server.address() as AddressInfo).port;
  return { server, baseUrl: `http://127.0.0.1:${bound}`, port: bound };
}

const startRelay = async () => {
  relay = new EventRelay(second.deps, { consumers: eventConsumers(), sweepIntervalMs: 500 });
  await relay.start();
};

test.serial("an event committed while no relay runs reaches the subscriber once one starts", async (t) => {
  const world = await realtimeWorld(second);
  const { displayId } = await openConversation(second, world, world.ownInbox.id);
  const agent = await subscribeAgent(first, world.account.id, world.account.agent.id);
  t.teardown(() => agent.close());

  const message = await postMessage(second, world, displayId, { content: "sent while the relay is down" });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.false(agent.received.some((pushed) => pushed.event === "message.created"));
  t.is((await first.knex("events").whereNull("dispatched_at").count<{ count: string }[]>("id as count"))[0]!.count !== "0", true);

  await startRelay();
  const pushed = await agent.next("message.created", (data) => data.id === message.id);
  t.is(pushed.data.content, "sent while the relay is down");
});

test.serial("two API processes: a subscriber of one hears what is posted through the other", async (t) => {
  const world = await realtimeWorld(first);
  const { displayId, visitorToken } = await openConversation(first, world, world.ownInbox.id);
  const agent = await subscribeAgent(first, world.account.id, world.account.agent.id);
  const visitor = await subscribeVisitor(second.baseUrl, visitorToken);
  t.teardown(() => [agent, visitor].forEach((cable) => cable.close()));

  const fromSecond = await postMessage(second, world, displayId, { content: "through the second process" }, world.account.agent.token);
  await agent.next("message.created", (data) => data.id === fromSecond.id);
  const fromFirst = await postMessage(first, world, displayId, { content: "through the first process" }, world.account.agent.token);
  await visitor.next("message.created", (data) => data.id === fromFirst.id);
  await visitor.next("message.created", (data) => data.id === fromSecond.id);
  // Each subscriber hears each message once, whichever process it was posted through.
  t.is(agent.received.filter((pushed) => pushed.event === "message.created" && pushed.data.id === fromSecond.id).length, 1);
  t.is(visitor.received.filter((pushed) => pushed.event === "message.created").length, 2);
  // Presence is shared too: the visitor connected to the second process is online to the agent on the first.
  await agent.next("presence.update", (data) => data.contacts[world.contact.id] === "online");
});

test.serial("an event committed while the subscriber's API process restarts reaches it once it reconnects", async (t) => {
  const world = await realtimeWorld(second);
  const { displayId, visitorToken } = await openConversation(second, world, world.ownInbox.id);
  const api = await apiProcess(first.deps);
  const agent = await subscribeAgent(first, world.account.id, world.account.agent.id, api.baseUrl);
  const visitor = await subscribeVisitor(api.baseUrl, visitorToken);
  const restarted: Server[] = [];
  t.teardown(async () => {
    [agent, visitor].forEach((cable) => cable.close());
    await Promise.all(restarted.map(closeServer));
  });
  const before = await postMessage(second, world, displayId, { content: "before the restart" });
  await agent.next("message.created", (data) => data.id === before.id);
  await visitor.next("message.created", (data) => data.id === before.id);

  // The process stops (its clients are told to reconnect); a reply is committed and broadcast meanwhile.
  await closeServer(api.server);
  const during = await postMessage(second, world, displayId, { content: "during the restart" });
  await eventually(
    () => second.knex("realtime_broadcasts").where({ name: "message.created" }).whereRaw("(data->>'id')::int = ?", [during.id]).first(),
    Boolean,
    "the reply's broadcast",
  );
  restarted.push((await apiProcess(first.deps, api.port)).server);

  // Both clients reconnect by themselves, resubscribe, and are sent what they missed, once.
  await agent.next("message.created", (data) => data.id === during.id, { timeoutMs: 45_000 });
  await visitor.next("message.created", (data) => data.id === during.id, { timeoutMs: 45_000 });
  const after = await postMessage(second, world, displayId, { content: "after the restart" });
  await agent.next("message.created", (data) => data.id === after.id);
  const heard = agent.received.filter((pushed) => pushed.event === "message.created").map((pushed) => pushed.data.id);
  t.deepEqual(heard, [before.id, during.id, after.id]);
});

test.serial("an account nobody is subscribed to gets no broadcasts written; once an agent subscribes, it does", async (t) => {
  if (!relay) await startRelay();
  const world = await realtimeWorld(second);
  const { displayId } = await openConversation(second, world, world.ownInbox.id);
  const unheard = await postMessage(second, world, displayId, { content: "nobody listens" });
  const dispatched = (id: number) =>
    eventually(
      () =>
        second
          .knex("events")
          .where({ account_id: world.account.id, name: "message_created" })
          .whereRaw("(payload->>'id')::int = ?", [id])
          .whereNotNull("dispatched_at")
          .first(),
      Boolean,
      "the message's event to be dispatched",
    );
  await dispatched(unheard.id);
  const broadcasts = () => second.knex("realtime_broadcasts").where({ account_id: world.account.id, name: "message.created" }).select("data");
  t.deepEqual(await broadcasts(), []);

  const agent = await subscribeAgent(first, world.account.id, world.account.agent.id);
  t.teardown(() => agent.close());
  const heard = await postMessage(second, world, displayId, { content: "someone listens" });
  await agent.next("message.created", (data) => data.id === heard.id);
  t.deepEqual(
    (await broadcasts()).map((row: { data: { id: number } }) => row.data.id),
    [heard.id],
  );
});
