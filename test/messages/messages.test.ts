import test from "ava";
import { createContact, createInbox } from "../support/conversationFactories";
import { useHarness } from "../support/harness";
import { activityTexts, conversationWorld, createConversation, postMessage, type ConversationWorld } from "../conversations/setup";

const h = useHarness(test);

const conversationRow = (world: ConversationWorld, displayId: number) =>
  h.knex("conversations").where({ account_id: world.account.id, display_id: displayId }).first();

test("create answers the message with integer message_type; notes, content types, campaign and template params are kept", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);

  const reply = await postMessage(h, world, conversation.id, { content: "How can I help?" }, world.account.agent.token);
  t.is(reply.status, 200);
  t.like(reply.body, {
    content: "How can I help?",
    account_id: world.account.id,
    inbox_id: world.inbox.id,
    conversation_id: conversation.id,
    message_type: 1,
    content_type: "text",
    content_attributes: {},
    private: false,
    status: "sent",
    sender_type: "User",
    sender_id: world.account.agent.id,
  });
  t.like(reply.body.sender, { id: world.account.agent.id, name: "Agent Person", type: "user" });
  t.is(typeof reply.body.created_at, "number");

  const incoming = await postMessage(h, world, conversation.id, { content: "My order is late", message_type: "incoming" });
  t.like(incoming.body, { message_type: 0, sender_type: "Contact", sender_id: world.contact.id });
  t.like(incoming.body.sender, { id: world.contact.id, type: "contact" });

  const note = await postMessage(h, world, conversation.id, { content: "Check the warehouse", private: true });
  t.like(note.body, { private: true, message_type: 1 });

  const select = await postMessage(h, world, conversation.id, {
    content: "Pick one",
    content_type: "input_select",
    content_attributes: {
      items: [
        { title: "Yes", value: "yes" },
        { title: "No", value: "no" },
      ],
    },
  });
  t.deepEqual(select.body.content_attributes, {
    items: [
      { title: "Yes", value: "yes" },
      { title: "No", value: "no" },
    ],
  });
  t.is(select.body.content_type, "input_select");

  const cards = await postMessage(h, world, conversation.id, {
    content: "Products",
    content_type: "cards",
    content_attributes: JSON.stringify({
      items: [{ title: "Shoe", media_url: "https://x.test/s.png", actions: [{ type: "link", text: "Buy", uri: "https://x.test" }] }],
    }),
  });
  t.is(cards.status, 200);
  t.is((cards.body.content_attributes.items as unknown[]).length, 1);

  const templateParams = {
    name: "order_update",
    category: "UTILITY",
    language: "en",
    processed_params: {
      body: { "1": "Jane" },
      header: { media_url: "https://x.test/h.png", media_type: "image" },
      buttons: [{ type: "url", parameter: "track" }],
    },
  };
  const template = await postMessage(h, world, conversation.id, { content: "Hi Jane", campaign_id: 12, template_params: templateParams });
  t.deepEqual(template.body.additional_attributes, { campaign_id: 12, template_params: templateParams });

  const csat = await postMessage(h, world, conversation.id, { content: "Rate us", content_type: "input_email", message_type: "template" });
  t.like(csat.body, { message_type: 3, content_type: "input_email" });
});

test("create refuses bad input with Chatwoot's 422 bodies and writes nothing", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const post = (body: Record<string, unknown>) => postMessage(h, world, conversation.id, body);

  t.deepEqual((await post({ content: "x", message_type: "shout" })).body, { error: "'shout' is not a valid message_type" });
  t.deepEqual((await post({ content: "x", content_type: "video" })).body, { error: "'video' is not a valid content_type" });
  t.deepEqual((await post({ content: "" })).body, { error: "Validation failed: Content can't be blank" });
  t.deepEqual((await post({ content: "x", content_type: "input_select", content_attributes: {} })).body, {
    error: "Validation failed: Content attributes At least one item is required.",
  });
  t.deepEqual((await post({ content: "x", content_type: "input_select", content_attributes: { items: [{ title: "a", colour: "red" }] } })).body, {
    error: "Validation failed: Content attributes contains invalid keys for items : [:colour]",
  });
  t.deepEqual((await post({ content: "x", content_type: "cards", content_attributes: { items: [{ title: "a" }] } })).body, {
    error: "Validation failed: Content attributes contains items missing actions",
  });
  const wrongType = await post({ content: 5 });
  t.is(wrongType.status, 422);
  t.deepEqual(wrongType.body.attributes, ["content"]);
  t.is((await postMessage(h, world, 999, { content: "x" })).status, 404);
  const conversationId = (await conversationRow(world, conversation.id)).id;
  t.deepEqual(await h.knex("messages").where("conversation_id", conversationId), []);
});

test("list shows the latest 20 with meta; before and after page by id", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world, { assignee_id: world.account.agent.id });
  await h.request("POST", `${world.base}/conversations/${conversation.id}/labels`, { token: world.account.admin.token, body: { labels: ["vip"] } });
  const ids: number[] = [];
  for (let i = 1; i <= 25; i++) ids.push((await postMessage(h, world, conversation.id, { content: `m${i}`, message_type: "incoming" })).body.id);
  const url = `${world.base}/conversations/${conversation.id}/messages`;
  const token = world.account.agent.token;

  const latest = await h.request("GET", url, { token });
  t.is(latest.status, 200);
  t.is(latest.body.payload.length, 20);
  t.deepEqual(
    latest.body.payload.map((m: { content: string }) => m.content),
    Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
  );
  t.like(latest.body.meta, { labels: ["vip"], additional_attributes: {}, agent_last_seen_at: null, assignee_last_seen_at: null });
  t.like(latest.body.meta.contact, { id: world.contact.id, type: "contact" });
  t.like(latest.body.meta.assignee, { id: world.account.agent.id, type: "user" });
  t.is(latest.body.payload[0].message_type, 0);

  const before = await h.request("GET", `${url}?before=${ids[5]}`, { token });
  // The activity message of the label change comes first in the conversation.
  t.deepEqual(
    before.body.payload.map((m: { content: string }) => m.content),
    ["Admin Person added vip", "m1", "m2", "m3", "m4", "m5"],
  );
  t.deepEqual(
    (await h.request("GET", `${url}?after=${ids[22]}`, { token })).body.payload.map((m: { content: string }) => m.content),
    ["m24", "m25"],
  );
  t.deepEqual(
    (await h.request("GET", `${url}?after=${ids[2]}&before=${ids[5]}`, { token })).body.payload.map((m: { content: string }) => m.content),
    ["m3", "m4", "m5"],
  );
  t.is((await h.request("GET", `${url}?before=abc`, { token })).status, 422);
});

test("update sets the delivery status on API inboxes only; delete leaves a stub", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const message = (await postMessage(h, world, conversation.id, { content: "Sent to the channel" })).body;
  const url = `${world.base}/conversations/${conversation.id}/messages/${message.id}`;
  const token = world.account.admin.token;

  const failed = await h.request("PATCH", url, { token, body: { status: "failed", external_error: "Number unreachable" } });
  t.is(failed.status, 200);
  t.like(failed.body, { id: message.id, status: "failed", content_attributes: { external_error: "Number unreachable" } });
  const read = await h.request("PATCH", url, { token, body: { status: "read" } });
  t.like(read.body, { status: "read", content_attributes: {} });
  // Never back from read to delivered; unknown statuses change nothing.
  t.is((await h.request("PATCH", url, { token, body: { status: "delivered" } })).body.status, "read");
  t.is((await h.request("PATCH", url, { token, body: { status: "bounced" } })).body.status, "read");
  t.is((await h.request("PATCH", `${world.base}/conversations/${conversation.id}/messages/999999`, { token, body: { status: "read" } })).status, 404);

  const widgetInbox = await createInbox(h, world.account, { name: "Widget", channel: { type: "web_widget", website_url: "https://shop.test" } });
  const { contact } = await createContact(h, world.account, { name: "Widget Visitor", inbox_id: widgetInbox.id });
  const widgetConversation = await createConversation(h, world, { inbox_id: widgetInbox.id, contact_id: contact.id, message: { content: "hello" } });
  const refused = await h.request("PATCH", `${world.base}/conversations/${widgetConversation.id}/messages/${widgetConversation.messages[0].id}`, {
    token,
    body: { status: "read" },
  });
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: "Message status update is only allowed for API inboxes" });

  const deleted = await h.request("DELETE", url, { token });
  t.is(deleted.status, 200);
  t.like(deleted.body, { id: message.id, content: "This message was deleted", content_type: "text", content_attributes: { deleted: true } });
  t.is((await h.request("DELETE", `${world.base}/conversations/${conversation.id}/messages/999999`, { token })).status, 404);
});

test("waiting_since starts with the contact and stops with an agent's reply; the first reply is stamped once", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const incoming = (await postMessage(h, world, conversation.id, { content: "Hello?", message_type: "incoming" })).body;
  let row = await conversationRow(world, conversation.id);
  t.is(Math.floor(row.waiting_since.getTime() / 1000), incoming.created_at);
  t.is(Math.floor(row.last_activity_at.getTime() / 1000), incoming.created_at);
  const contact = await h.knex("contacts").where("id", world.contact.id).first();
  t.truthy(contact.last_activity_at);

  await postMessage(h, world, conversation.id, { content: "A note", private: true });
  t.truthy((await conversationRow(world, conversation.id)).waiting_since, "a private note does not answer the contact");

  const reply = (await postMessage(h, world, conversation.id, { content: "Here!" }, world.account.agent.token)).body;
  row = await conversationRow(world, conversation.id);
  t.is(row.waiting_since, null);
  t.is(Math.floor(row.first_reply_created_at.getTime() / 1000), reply.created_at);

  await postMessage(h, world, conversation.id, { content: "Again?", message_type: "incoming" });
  t.truthy((await conversationRow(world, conversation.id)).waiting_since);
  await postMessage(h, world, conversation.id, { content: "Second reply" });
  row = await conversationRow(world, conversation.id);
  t.is(row.waiting_since, null);
  t.is(Math.floor(row.first_reply_created_at.getTime() / 1000), reply.created_at);

  const shown = await h.request("GET", `${world.base}/conversations/${conversation.id}`, { token: world.account.admin.token });
  t.is(shown.body.first_reply_created_at, reply.created_at);
  t.is(shown.body.waiting_since, 0);
});

test("an incoming message reopens a resolved or snoozed conversation", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const toggle = (body: Record<string, unknown>) =>
    h.request("POST", `${world.base}/conversations/${conversation.id}/toggle_status`, { token: world.account.agent.token, body });

  await toggle({ status: "resolved" });
  await postMessage(h, world, conversation.id, { content: "Not fixed", message_type: "incoming" });
  t.is((await conversationRow(world, conversation.id)).status, "open");

  await toggle({ status: "snoozed" });
  await postMessage(h, world, conversation.id, { content: "Still there?", message_type: "incoming" });
  t.is((await conversationRow(world, conversation.id)).status, "open");

  // An agent's own outgoing message does not reopen.
  await toggle({ status: "resolved" });
  await postMessage(h, world, conversation.id, { content: "Follow-up" });
  t.is((await conversationRow(world, conversation.id)).status, "resolved");

  t.deepEqual(await activityTexts(h, world, conversation.id), [
    "Conversation was marked resolved by Agent Person",
    "System reopened the conversation due to a new incoming message.",
    "Conversation was snoozed by Agent Person",
    "Conversation was reopened by Admin Person",
    "Conversation was marked resolved by Agent Person",
  ]);
});

test("a conversation takes 200 messages a minute: of 50 sent at once past 180, 20 are written and 30 refused, and its activity moves with the last", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const row = await conversationRow(world, conversation.id);
  await h.knex("messages").insert(
    Array.from({ length: 180 }, (_, i) => ({
      account_id: row.account_id,
      inbox_id: row.inbox_id,
      conversation_id: row.id,
      message_type: 1,
      content: `earlier ${i}`,
    })),
  );
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => postMessage(h, world, conversation.id, { content: `burst ${i}` })));
  t.is(answers.filter((answer) => answer.status === 200).length, 20);
  const refused = answers.filter((answer) => answer.status !== 200);
  t.is(refused.length, 30);
  for (const answer of refused) t.deepEqual([answer.status, answer.body], [422, { error: "Validation failed: Too many messages" }]);
  t.is(Number((await h.knex("messages").where("conversation_id", row.id).count({ n: "*" }).first())!.n), 200);
  const newest = await h
    .knex("messages")
    .where("conversation_id", row.id)
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .first();
  t.deepEqual((await conversationRow(world, conversation.id)).last_activity_at, newest.created_at);
});
