import test from "ava";
import { useHarness } from "../support/harness";
import { conversationWorld, createConversation, eventsOf, postMessage } from "./setup";

const h = useHarness(test);

test("conversation_created and message_created carry Chatwoot's webhook_data", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world, { message: { content: "Hello\\\nthere\n\n", message_type: "incoming" } });
  const events = await eventsOf(h, world, conversation.id);
  t.deepEqual(
    events.map((e) => e.name),
    ["conversation_created", "message_created", "conversation_updated", "contact_updated"],
  );
  t.true(events.every((e) => e.account_id === world.account.id && e.inbox_id === world.inbox.id));

  const created = events[0].payload;
  t.like(created, {
    event: "conversation_created",
    id: conversation.id,
    inbox_id: world.inbox.id,
    channel: "Channel::Api",
    status: "open",
    can_reply: true,
    labels: [],
    priority: null,
    snoozed_until: null,
    first_reply_created_at: null,
    unread_count: 1,
    account: { id: world.account.id, name: "Acme" },
  });
  t.is(typeof created.waiting_since, "number");
  t.true(created.waiting_since > 0);
  t.is(created.timestamp, created.last_activity_at);
  t.is(typeof created.updated_at, "number");
  // With contact_id and inbox_id, Chatwoot's ContactInboxBuilder gives the conversation a contact inbox of its own.
  t.like(created.contact_inbox, { contact_id: world.contact.id, inbox_id: world.inbox.id, hmac_verified: false });
  t.regex(created.contact_inbox.source_id, /^[0-9a-f-]{36}$/);
  t.like(created.meta, { assignee: null, assignee_type: null, team: null, hmac_verified: false });
  t.like(created.meta.sender, { id: world.contact.id, type: "contact" });
  t.is(created.messages.length, 1);
  t.like(created.messages[0], { message_type: 0, conversation_id: conversation.id, content: "Hello\\\nthere\n\n" });

  const message = events[1].payload;
  t.like(message, {
    event: "message_created",
    message_type: "incoming",
    content_type: "text",
    content: "Hello\nthere",
    private: false,
    source_id: null,
    inbox: { id: world.inbox.id, name: "Support" },
    account: { id: world.account.id, name: "Acme" },
  });
  t.regex(message.created_at, /^\d{4}-\d\d-\d\dT.*Z$/);
  t.false("status" in message);
  t.like(message.sender, { id: world.contact.id, name: "Jane Roe", account: { id: world.account.id, name: "Acme" } });
  t.false("type" in message.sender);
  t.is(message.conversation.id, conversation.id);

  t.deepEqual(Object.keys(Object.assign({}, ...events[2].payload.changed_attributes)), ["waiting_since", "updated_at"]);
});

test("status changes: conversation_status_changed with null changed_attributes, then conversation_updated with every change", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  await postMessage(h, world, conversation.id, { content: "Hi", message_type: "incoming" });
  const before = (await eventsOf(h, world, conversation.id)).length;
  await h.request("POST", `${world.base}/conversations/${conversation.id}/toggle_status`, { token: world.account.admin.token, body: { status: "resolved" } });

  const events = (await eventsOf(h, world, conversation.id)).slice(before);
  t.deepEqual(
    events.map((e) => e.name),
    ["conversation_status_changed", "conversation_updated"],
  );
  t.like(events[0].payload, { event: "conversation_status_changed", status: "resolved", changed_attributes: null });
  const changed = events[1].payload.changed_attributes as Record<string, { previous_value: unknown; current_value: unknown }>[];
  t.deepEqual(
    changed.map((c) => Object.keys(c)[0]),
    ["status", "waiting_since", "updated_at"],
  );
  t.deepEqual(changed[0], { status: { previous_value: "open", current_value: "resolved" } });
  t.is(changed[1]!.waiting_since!.current_value, null);
  t.regex(String(changed[1]!.waiting_since!.previous_value), /Z$/);
  // The activity message of the change is not an event, and the webhook shows the last public message.
  t.is(events[1].payload.messages[0].content, "Hi");
});

test("labels, priority and assignee changes are conversation_updated; private notes are message_created; edits are message_updated", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const url = `${world.base}/conversations/${conversation.id}`;
  const token = world.account.admin.token;
  const start = (await eventsOf(h, world, conversation.id)).length;

  await h.request("POST", `${url}/labels`, { token, body: { labels: ["vip"] } });
  await h.request("POST", `${url}/toggle_priority`, { token, body: { priority: "low" } });
  await h.request("POST", `${url}/assignments`, { token, body: { assignee_id: world.account.agent.id } });
  const note = (await postMessage(h, world, conversation.id, { content: "internal", private: true })).body;
  await h.request("DELETE", `${url}/messages/${note.id}`, { token });
  // Nothing changes: no event.
  await h.request("POST", `${url}/labels`, { token, body: { labels: ["vip"] } });

  const events = (await eventsOf(h, world, conversation.id)).slice(start);
  t.deepEqual(
    events.map((e) => e.name),
    ["conversation_updated", "conversation_updated", "conversation_updated", "message_created", "message_updated"],
  );
  t.deepEqual(events[0].payload.changed_attributes[0], { label_list: { previous_value: [], current_value: ["vip"] } });
  t.deepEqual(events[1].payload.changed_attributes[0], { priority: { previous_value: null, current_value: "low" } });
  t.deepEqual(events[2].payload.changed_attributes[0], { assignee_id: { previous_value: null, current_value: world.account.agent.id } });
  t.like(events[2].payload.meta, { assignee_type: "User", assignee: { id: world.account.agent.id, type: "user", name: "Agent Person" } });
  t.like(events[3].payload, { private: true, message_type: "outgoing", sender: { id: world.account.admin.id, type: "user", name: "Admin Person" } });
  t.like(events[4].payload, { event: "message_updated", id: note.id, content: "This message was deleted" });
  const activity = await h.knex("events").whereRaw("payload->>'message_type' = 'activity'");
  t.deepEqual(activity, []);
});

test("the same custom attributes in another key order are no change: no conversation_updated", async (t) => {
  const world = await conversationWorld(h);
  const admin = world.account.admin.token;
  for (const [key, type] of [
    ["order_id", 1],
    ["plan", 0],
  ] as const) {
    const define = await h.request("POST", `${world.base}/custom_attribute_definitions`, {
      token: admin,
      body: { attribute_display_name: key, attribute_key: key, attribute_display_type: type, attribute_model: 0 },
    });
    t.is(define.status, 200);
  }
  const conversation = await createConversation(h, world);
  const url = `${world.base}/conversations/${conversation.id}/custom_attributes`;
  // jsonb stores shorter keys first, so it hands these back as {plan, order_id}.
  t.is((await h.request("POST", url, { token: admin, body: { custom_attributes: { order_id: 7, plan: "pro" } } })).status, 200);
  const start = (await eventsOf(h, world, conversation.id)).length;

  const again = await h.request("POST", url, { token: admin, body: { custom_attributes: { order_id: 7, plan: "pro" } } });
  t.deepEqual(again.body, { custom_attributes: { order_id: 7, plan: "pro" } });
  t.deepEqual(
    (await eventsOf(h, world, conversation.id)).slice(start).map((e) => e.name),
    [],
  );

  await h.request("POST", url, { token: admin, body: { custom_attributes: { order_id: 8, plan: "pro" } } });
  t.deepEqual(
    (await eventsOf(h, world, conversation.id)).slice(start).map((e) => e.name),
    ["conversation_updated"],
  );
});

test("a failed status reported again with the same error is no change: no message_updated", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const token = world.account.admin.token;
  const message = (await postMessage(h, world, conversation.id, { content: "Hi", content_attributes: { in_reply_to_external_id: "ext-1" } })).body;
  const url = `${world.base}/conversations/${conversation.id}/messages/${message.id}`;
  const failed = await h.request("PATCH", url, { token, body: { status: "failed", external_error: "Number unreachable" } });
  t.is(failed.status, 200);
  t.like(failed.body.content_attributes, { in_reply_to_external_id: "ext-1", external_error: "Number unreachable" });
  const start = (await eventsOf(h, world, conversation.id)).length;

  t.is((await h.request("PATCH", url, { token, body: { status: "failed", external_error: "Number unreachable" } })).status, 200);
  t.deepEqual(
    (await eventsOf(h, world, conversation.id)).slice(start).map((e) => e.name),
    [],
  );

  await h.request("PATCH", url, { token, body: { status: "failed", external_error: "Blocked" } });
  t.deepEqual(
    (await eventsOf(h, world, conversation.id)).slice(start).map((e) => e.name),
    ["message_updated"],
  );
});
