import test from "ava";
import { WebSocket } from "ws";
import { createUser } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { subscribeRoom } from "./cableClient";
import { openConversation, postMessage, pubsubTokenOf, realtimeWorld, subscribeAgent, subscribeVisitor } from "./world";

const h = useHarness(test, { relay: { sweepIntervalMs: 500 }, realtime: true });

test("an agent receives message.created of their inbox's conversations and nothing of another inbox's", async (t) => {
  const world = await realtimeWorld(h);
  const mine = await openConversation(h, world, world.ownInbox.id);
  const theirs = await openConversation(h, world, world.otherInbox.id);
  const agent = await subscribeAgent(h, world.account.id, world.account.agent.id);
  const admin = await subscribeAgent(h, world.account.id, world.account.admin.id);
  t.teardown(() => [agent, admin].forEach((cable) => cable.close()));

  const other = await postMessage(h, world, theirs.displayId, { content: "for another inbox" });
  const own = await postMessage(h, world, mine.displayId, { content: "for my inbox" });

  const pushed = await agent.next("message.created", (data) => data.id === own.id);
  t.like(pushed.data, {
    id: own.id,
    content: "for my inbox",
    conversation_id: mine.displayId,
    inbox_id: world.ownInbox.id,
    account_id: world.account.id,
    message_type: 1,
    private: false,
    sender: { id: world.account.admin.id, type: "user" },
  });
  t.is(typeof pushed.data.created_at, "number");
  // The administrator sees the whole account; by the time they have both, the agent would have had the other.
  await admin.next("message.created", (data) => data.id === other.id);
  await admin.next("message.created", (data) => data.id === own.id);
  t.false(
    agent.received.some((message) => (message.event.startsWith("message.") && message.data.id === other.id) || message.data.inbox_id === world.otherInbox.id),
  );
  t.true(agent.received.some((message) => message.event === "conversation.updated" || message.event === "message.created"));
});

test("a visitor receives the agent's reply and never a private note", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId, visitorToken } = await openConversation(h, world, world.ownInbox.id);
  const visitor = await subscribeVisitor(h.baseUrl, visitorToken);
  const admin = await subscribeAgent(h, world.account.id, world.account.admin.id);
  t.teardown(() => [visitor, admin].forEach((cable) => cable.close()));

  const note = await postMessage(h, world, displayId, { content: "internal: VIP customer", private: true }, world.account.agent.token);
  const reply = await postMessage(h, world, displayId, { content: "How can I help?" }, world.account.agent.token);

  const pushed = await visitor.next("message.created", (data) => data.id === reply.id);
  t.like(pushed.data, { content: "How can I help?", conversation_id: displayId, private: false, sender: { id: world.account.agent.id } });
  // The agents get the note; the visitor, having had the later reply, never does.
  await admin.next("message.created", (data) => data.id === note.id && data.private === true);
  await admin.next("message.created", (data) => data.id === reply.id);
  t.false(
    visitor.received.some((message) => (message.event.startsWith("message.") && message.data.id === note.id) || JSON.stringify(message.data).includes("VIP")),
  );
});

test("a visitor gets nothing of another visitor's conversation", async (t) => {
  const world = await realtimeWorld(h);
  const first = await openConversation(h, world, world.ownInbox.id);
  const { contact } = await expectOk(accountApi(h, world.account).post("/contacts", { name: "Other" }), "contact").then((body) => body.payload);
  const second = await expectOk(accountApi(h, world.account).post("/conversations", { inbox_id: world.ownInbox.id, contact_id: contact.id }), "conversation");
  const visitor = await subscribeVisitor(h.baseUrl, first.visitorToken);
  const admin = await subscribeAgent(h, world.account.id, world.account.admin.id);
  t.teardown(() => [visitor, admin].forEach((cable) => cable.close()));

  const foreign = await postMessage(h, world, second.id, { content: "not yours" });
  const own = await postMessage(h, world, first.displayId, { content: "yours" });
  await visitor.next("message.created", (data) => data.id === own.id);
  await admin.next("message.created", (data) => data.id === foreign.id);
  t.false(
    visitor.received.some((message) => message.event.startsWith("message.") && (message.data.id === foreign.id || message.data.conversation_id === second.id)),
  );
});

test("typing reaches the conversation's agents and visitor but not the typist", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId, visitorToken } = await openConversation(h, world, world.ownInbox.id);
  const visitor = await subscribeVisitor(h.baseUrl, visitorToken);
  const typist = await subscribeAgent(h, world.account.id, world.account.agent.id);
  const admin = await subscribeAgent(h, world.account.id, world.account.admin.id);
  t.teardown(() => [visitor, typist, admin].forEach((cable) => cable.close()));

  const path = `/conversations/${displayId}/toggle_typing_status`;
  const agentApi = accountApi(h, world.account, world.account.agent.token);
  t.is((await agentApi.post(path, { typing_status: "on" })).status, 200);
  const on = await visitor.next("conversation.typing_on");
  t.like(on.data, { account_id: world.account.id, is_private: false, conversation: { id: displayId }, user: { id: world.account.agent.id, type: "user" } });
  await admin.next("conversation.typing_on");
  t.is((await agentApi.post(path, { typing_status: "off" })).status, 200);
  await visitor.next("conversation.typing_off");
  await admin.next("conversation.typing_off");
  t.false(typist.received.some((message) => message.event.startsWith("conversation.typing")));
});

test("presence: a connected agent and visitor are online to the account, an agent's busy setting wins", async (t) => {
  const world = await realtimeWorld(h);
  const { visitorToken } = await openConversation(h, world, world.ownInbox.id);
  const admin = await subscribeAgent(h, world.account.id, world.account.admin.id);
  t.teardown(() => admin.close());
  // On subscribing, the caller hears the account's presence: only themselves so far.
  const first = await admin.next("presence.update");
  t.deepEqual(first.data, { account_id: world.account.id, users: { [world.account.admin.id]: "online" }, contacts: {} });

  const agent = await subscribeAgent(h, world.account.id, world.account.agent.id);
  const visitor = await subscribeVisitor(h.baseUrl, visitorToken);
  t.teardown(() => [agent, visitor].forEach((cable) => cable.close()));
  const both = await admin.next("presence.update", (data) => data.users[world.account.agent.id] === "online" && data.contacts[world.contact.id] === "online");
  t.is(both.data.users[world.account.admin.id], "online");
  // A visitor hears which agents are online, but not of other visitors.
  const told = await visitor.next("presence.update");
  t.false("contacts" in told.data);

  const agents = (await accountApi(h, world.account).get("/agents")).body;
  t.is(agents.find((a: any) => a.id === world.account.agent.id).availability_status, "online");
  const contact = (await accountApi(h, world.account).get(`/contacts/${world.contact.id}`)).body.payload;
  t.is(contact.availability_status, "online");

  // The agent sets themselves busy: busy wins over being connected.
  await expectOk(
    h.request("PUT", "/api/v1/profile", { token: world.account.agent.token, body: { availability: "busy", account_id: world.account.id } }),
    "busy",
  );
  agent.subscription.perform("update_presence");
  await agent.next("presence.update", (data) => data.users[world.account.agent.id] === "busy");

  // Once the visitor leaves, they are offline again.
  visitor.close();
  await admin.next("presence.update", (data) => !(String(world.contact.id) in data.contacts));
  const after = (await accountApi(h, world.account).get(`/contacts/${world.contact.id}`)).body.payload;
  t.is(after.availability_status, "offline");
});

test("a wrong or foreign token is rejected", async (t) => {
  const world = await realtimeWorld(h);
  const stranger = await createUser(h);
  const agentToken = await pubsubTokenOf(h, world.account.agent.id);
  const attempts = [
    { pubsub_token: "not-a-token", account_id: world.account.id, user_id: world.account.agent.id },
    // Another user's token, or the agent's own for an account they do not belong to.
    { pubsub_token: await pubsubTokenOf(h, stranger.id), account_id: world.account.id, user_id: stranger.id },
    { pubsub_token: agentToken, account_id: world.account.id, user_id: world.account.admin.id },
    { pubsub_token: agentToken, account_id: world.account.id + 100000, user_id: world.account.agent.id },
    { pubsub_token: "not-a-visitor" },
    {},
  ];
  for (const params of attempts) {
    const cable = subscribeRoom(h.baseUrl, params);
    t.false(await cable.outcome, JSON.stringify(params));
    cable.close();
  }
  const wrongChannel = subscribeRoom(h.baseUrl, { channel: "AppearanceChannel", pubsub_token: agentToken });
  t.false(await wrongChannel.outcome);
  wrongChannel.close();
});

test("the protocol: welcome, pings, the subscription limit, and nothing but /cable", async (t) => {
  const world = await realtimeWorld(h);
  const token = await pubsubTokenOf(h, world.account.admin.id);
  const socket = new WebSocket(`${h.baseUrl.replace("http", "ws")}/cable`, ["actioncable-v1-json", "actioncable-unsupported"]);
  const frames: any[] = [];
  socket.on("message", (raw) => frames.push(JSON.parse(raw.toString())));
  await new Promise((resolve) => socket.once("open", resolve));
  t.teardown(() => socket.close());
  t.is(socket.protocol, "actioncable-v1-json");
  const identifiers = Array.from({ length: 11 }, (_, i) =>
    JSON.stringify({ channel: "RoomChannel", pubsub_token: token, account_id: world.account.id, user_id: world.account.admin.id, n: i }),
  );
  for (const identifier of identifiers) socket.send(JSON.stringify({ command: "subscribe", identifier }));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !(frames.some((f) => f.type === "ping") && frames.filter((f) => f.identifier && f.type).length === 11)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.like(frames[0], { type: "welcome" });
  t.true(frames.some((f) => f.type === "ping" && typeof f.message === "number"));
  t.is(frames.filter((f) => f.type === "confirm_subscription").length, 10);
  t.is(frames.filter((f) => f.type === "reject_subscription").length, 1);

  const elsewhere = new WebSocket(`${h.baseUrl.replace("http", "ws")}/socket`, ["actioncable-v1-json"]);
  const failed = await new Promise<string>((resolve) => {
    elsewhere.once("unexpected-response", (_req, res) => resolve(String(res.statusCode)));
    elsewhere.once("error", (err) => resolve(err.message));
  });
  t.regex(failed, /404/);
});

test("/metrics counts the open /cable connections", async (t) => {
  const world = await realtimeWorld(h);
  const admin = await subscribeAgent(h, world.account.id, world.account.admin.id);
  t.teardown(() => admin.close());
  const text = (await h.request("GET", "/metrics")).body as string;
  const count = Number(/^realtime_connections (\d+)/m.exec(text)?.[1]);
  t.true(count >= 1);
});

test("assigning a conversation tells its inbox's agents assignee.changed, with the conversation as it now is", async (t) => {
  const world = await realtimeWorld(h);
  const { displayId, visitorToken } = await openConversation(h, world, world.ownInbox.id);
  const agent = await subscribeAgent(h, world.account.id, world.account.agent.id);
  const visitor = await subscribeVisitor(h.baseUrl, visitorToken);
  t.teardown(() => [agent, visitor].forEach((cable) => cable.close()));

  await expectOk(accountApi(h, world.account).post(`/conversations/${displayId}/assignments`, { assignee_id: world.account.agent.id }), "assign");
  const changed = await agent.next("assignee.changed");
  t.like(changed.data, { id: displayId, account_id: world.account.id, meta: { assignee: { id: world.account.agent.id }, assignee_type: "User" } });
  await agent.next("conversation.updated", (data) => data.id === displayId && data.meta.assignee?.id === world.account.agent.id);
  // The visitor hears the conversation change, but assignee.changed is the agents' alone.
  await visitor.next("conversation.updated", (data) => data.id === displayId);
  t.false(visitor.received.some((pushed) => pushed.event === "assignee.changed"));
});
