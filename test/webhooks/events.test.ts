import test from "ava";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, expectOk, quickRetries, useHarness } from "../support/harness";
import { Receiver, signatureValid, type ReceivedRequest } from "../support/receiver";

const h = useHarness(test, { relay: true, settings: { delivery: quickRetries() } });

async function world(t: { teardown(fn: () => unknown): void }, respond?: (attempt: number, request: ReceivedRequest) => number) {
  const account = await createAccount(h);
  const receiver = await new Receiver(respond).start();
  t.teardown(() => receiver.stop());
  return {
    account,
    receiver,
    api: (method: string, path: string, body?: unknown) =>
      expectOk(h.request(method, `/api/v1/accounts/${account.id}${path}`, { token: account.admin.token, body }), `${method} ${path}`),
  };
}

async function conversationIn(account: TestAccount, inboxId: number) {
  const { contact } = await createContact(h, account, { inbox_id: inboxId, email: `c${Date.now()}@example.com` });
  const conversation = await expectOk(accountApi(h, account).post("/conversations", { inbox_id: inboxId, contact_id: contact.id }), "conversation");
  return { contact, conversation };
}

const events = (requests: ReceivedRequest[]) => requests.map((r) => r.body.event);

test("each conversation, message and contact event arrives once, with Chatwoot's payload", async (t) => {
  const { account, receiver, api } = await world(t);
  const all = [
    "conversation_created",
    "conversation_status_changed",
    "conversation_updated",
    "message_created",
    "message_updated",
    "contact_created",
    "contact_updated",
  ];
  const { payload } = await api("POST", "/webhooks", { url: receiver.url, subscriptions: all });
  const inbox = await createInbox(h, account);
  const { contact, conversation } = await conversationIn(account, inbox.id);
  await api("PATCH", `/contacts/${contact.id}`, { name: "Renamed" });
  const message = await api("POST", `/conversations/${conversation.id}/messages`, { content: "Hello there", message_type: "outgoing" });
  await api("POST", `/conversations/${conversation.id}/toggle_status`, { status: "resolved" });

  await receiver.waitFor((r) =>
    ["conversation_created", "contact_created", "contact_updated", "message_created", "conversation_status_changed", "conversation_updated"].every((e) =>
      events(r).includes(e),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const received = receiver.requests;
  for (const request of received) t.true(signatureValid(request, payload.webhook.secret));
  const deliveryIds = received.map((r) => r.headers["x-chatwoot-delivery"]);
  t.is(new Set(deliveryIds).size, deliveryIds.length, "no delivery arrives twice");

  const created = received.find((r) => r.body.event === "conversation_created")!.body;
  t.like(created, { id: conversation.id, inbox_id: inbox.id, status: "open", channel: "Channel::Api", account: { id: account.id } });
  t.is(created.meta.sender.id, contact.id);
  t.is(typeof created.created_at, "number");

  const messageCreated = received.filter((r) => r.body.event === "message_created").map((r) => r.body);
  t.is(messageCreated.length, 1);
  t.like(messageCreated[0], { id: message.id, content: "Hello there", message_type: "outgoing", private: false, content_type: "text" });
  t.is(messageCreated[0].conversation.id, conversation.id);
  t.like(messageCreated[0].sender, { id: account.admin.id, type: "user" });
  t.regex(messageCreated[0].created_at, /^\d{4}-\d{2}-\d{2}T/);

  const statusChanged = received.find((r) => r.body.event === "conversation_status_changed")!.body;
  t.is(statusChanged.status, "resolved");
  t.is(statusChanged.changed_attributes, null);
  const updated = received.filter((r) => r.body.event === "conversation_updated").map((r) => r.body);
  t.true(updated.some((u) => u.changed_attributes.some((c: Record<string, unknown>) => "status" in c)));

  const contactUpdated = received.find((r) => r.body.event === "contact_updated")!.body;
  t.like(contactUpdated, { id: contact.id, name: "Renamed" });
  t.deepEqual(
    contactUpdated.changed_attributes.find((c: Record<string, unknown>) => "name" in c),
    { name: { previous_value: contact.name, current_value: "Renamed" } },
  );
});

test("the API inbox's webhook_url gets the conversation traffic, signed with the channel secret", async (t) => {
  const { account, receiver } = await world(t);
  const inbox = await createInbox(h, account, { channel: { type: "api", webhook_url: receiver.url } });
  const { conversation } = await conversationIn(account, inbox.id);
  await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/conversations/${conversation.id}/messages`, {
      token: account.admin.token,
      body: { content: "To the channel" },
    }),
    "message",
  );
  const requests = await receiver.waitFor((r) => events(r).includes("message_created"));
  const message = requests.find((r) => r.body.event === "message_created")!;
  t.is(message.body.content, "To the channel");
  t.true(signatureValid(message, inbox.secret));
  t.false(events(requests).includes("contact_created"), "contact events go to account webhooks only");
});

test("when the API inbox's webhook refuses for good, the message is marked failed with the error", async (t) => {
  const { account, receiver, api } = await world(t, () => 422);
  const inbox = await createInbox(h, account, { channel: { type: "api", webhook_url: receiver.url } });
  const { conversation } = await conversationIn(account, inbox.id);
  const message = await api("POST", `/conversations/${conversation.id}/messages`, { content: "Will fail" });

  const deadline = Date.now() + 15_000;
  let row;
  do {
    await new Promise((resolve) => setTimeout(resolve, 200));
    row = await h.knex("messages").where("id", message.id).first();
  } while (row.status !== "failed" && Date.now() < deadline);
  t.is(row.status, "failed");
  t.is(row.content_attributes.external_error, "422 Unprocessable Entity");
  const updated = await h.knex("events").where({ account_id: account.id, name: "message_updated" }).select("payload");
  t.true(updated.some((e) => e.payload.id === message.id));
});

test("an agent bot gets its inbox's messages signed with its secret; when its webhook fails, the pending conversation opens", async (t) => {
  const { account, receiver, api } = await world(t, () => 410);
  const bot = await api("POST", "/agent_bots", { name: "Helper", outgoing_url: receiver.url });
  const inbox = await createInbox(h, account);
  await api("POST", `/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: bot.id });
  const { conversation } = await conversationIn(account, inbox.id);
  t.is(conversation.status, "pending", "a new conversation in a bot inbox starts pending");

  await api("POST", `/conversations/${conversation.id}/messages`, { content: "Hi bot", message_type: "incoming" });
  const requests = await receiver.waitFor((r) => events(r).includes("message_created"));
  const delivered = requests.find((r) => r.body.event === "message_created")!;
  t.true(signatureValid(delivered, bot.secret));
  t.false(events(requests).includes("conversation_created"), "bots do not get conversation_created");

  const deadline = Date.now() + 15_000;
  let shown;
  do {
    await new Promise((resolve) => setTimeout(resolve, 200));
    shown = await api("GET", `/conversations/${conversation.id}`);
  } while (shown.status !== "open" && Date.now() < deadline);
  t.is(shown.status, "open");
  const activities = await h
    .knex("messages")
    .where({ conversation_id: (await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first()).id, message_type: 2 })
    .pluck("content");
  t.true(activities.includes("Conversation was marked open by system due to an error with the agent bot."));
});
