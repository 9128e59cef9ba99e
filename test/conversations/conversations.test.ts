import test from "ava";
import { createAccount } from "../support/factories";
import { createContact, createInbox, noteRawMessages } from "../support/conversationFactories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { activityTexts, conversationWorld, createConversation, postMessage } from "./setup";

const h = useHarness(test);

const NOT_AUTHORIZED = { error: "You are not authorized to do this action" };
const NOT_FOUND = { error: "Resource could not be found" };

test("create answers Chatwoot's conversation partial with the per-account display id", async (t) => {
  const world = await conversationWorld(h);
  const first = await createConversation(h, world, { additional_attributes: { browser: "Firefox" } });
  const second = await createConversation(h, world);
  const elsewhere = await conversationWorld(h, "Other");
  const otherFirst = await createConversation(h, elsewhere);
  t.is(first.id, 1);
  t.is(second.id, 2);
  t.is(otherFirst.id, 1);

  t.like(first, {
    account_id: world.account.id,
    inbox_id: world.inbox.id,
    status: "open",
    priority: null,
    labels: [],
    muted: false,
    can_reply: true,
    messages: [],
    last_non_activity_message: null,
    unread_count: 0,
    additional_attributes: { browser: "Firefox" },
    custom_attributes: {},
    snoozed_until: null,
    agent_last_seen_at: 0,
    first_reply_created_at: 0,
    waiting_since: 0,
    sla_policy_id: null,
  });
  t.regex(first.uuid, /^[0-9a-f-]{36}$/);
  t.is(first.timestamp, first.last_activity_at);
  t.true(Math.abs(first.created_at - Date.now() / 1000) < 60);
  t.deepEqual(Object.keys(first.meta), ["sender", "channel", "hmac_verified"]);
  t.like(first.meta, { channel: "Channel::Api", hmac_verified: false });
  t.like(first.meta.sender, {
    id: world.contact.id,
    name: "Jane Roe",
    email: `jane-${world.account.id}@example.com`,
    availability_status: "offline",
    blocked: false,
  });
  t.false("assignee" in first.meta);

  const shown = await h.request("GET", `${world.base}/conversations/1`, { token: world.account.admin.token });
  t.is(shown.status, 200);
  t.deepEqual(shown.body, { ...first, updated_at: shown.body.updated_at });
});

test("create by source_id, with a first message, status and assignee", async (t) => {
  const world = await conversationWorld(h);
  const created = await h.request("POST", `${world.base}/conversations`, {
    token: world.account.agent.token,
    body: { source_id: world.sourceId, status: "pending", assignee_id: world.account.agent.id, message: { content: "We got your request" } },
  });
  t.is(created.status, 200);
  t.is(created.body.status, "pending");
  t.like(created.body.meta.assignee, { id: world.account.agent.id, name: "Agent Person", role: "agent", available_name: "Agent Person" });
  t.is(created.body.meta.assignee_type, "User");
  t.is(created.body.messages.length, 1);
  t.like(created.body.messages[0], {
    content: "We got your request",
    message_type: 1,
    sender_type: "User",
    sender_id: world.account.agent.id,
    conversation_id: created.body.id,
  });
  t.like(created.body.messages[0].sender, { id: world.account.agent.id, type: "user" });
  t.is(created.body.first_reply_created_at, created.body.messages[0].created_at);
});

test("create refuses unknown inboxes, contacts and source ids, bad values and agents outside the inbox", async (t) => {
  const world = await conversationWorld(h);
  const token = world.account.admin.token;
  const post = (body: Record<string, unknown>, as = token) => h.request("POST", `${world.base}/conversations`, { token: as, body });

  t.deepEqual((await post({ inbox_id: 999999, contact_id: world.contact.id })).body, NOT_FOUND);
  t.is((await post({ inbox_id: world.inbox.id, contact_id: 999999 })).status, 404);
  t.is((await post({ source_id: "no-such-source" })).status, 404);
  t.is((await post({})).status, 404);

  const badStatus = await post({ inbox_id: world.inbox.id, contact_id: world.contact.id, status: "closed" });
  t.is(badStatus.status, 422);
  t.deepEqual(badStatus.body, { message: "Status is not included in the list", attributes: ["status"] });

  const badAssignee = await post({ inbox_id: world.inbox.id, contact_id: world.contact.id, assignee_id: 999999 });
  t.deepEqual(badAssignee.body, { message: "Assignee must exist", attributes: ["assignee"] });

  const badMessage = await post({ inbox_id: world.inbox.id, contact_id: world.contact.id, message: { content: "x", message_type: "shout" } });
  t.deepEqual(badMessage.body, { error: "'shout' is not a valid message_type" });
  // Nothing of a refused create is left behind.
  t.is((await h.knex("conversations").where("account_id", world.account.id)).length, 0);

  const privateInbox = await createInbox(h, world.account, { name: "Private" });
  const denied = await post({ inbox_id: privateInbox.id, contact_id: world.contact.id }, world.account.agent.token);
  t.is(denied.status, 401);
  t.deepEqual(denied.body, NOT_AUTHORIZED);
});

test("agents see only conversations of their inboxes; administrators see all", async (t) => {
  const world = await conversationWorld(h);
  const otherInbox = await createInbox(h, world.account, { name: "Sales" });
  const { contact: salesContact } = await createContact(h, world.account, { name: "Sam", inbox_id: otherInbox.id });
  const mine = await createConversation(h, world);
  const hidden = await createConversation(h, world, { inbox_id: otherInbox.id, contact_id: salesContact.id });

  const agentList = await h.request("GET", `${world.base}/conversations`, { token: world.account.agent.token });
  t.is(agentList.status, 200);
  t.deepEqual(
    agentList.body.data.payload.map((c: { id: number }) => c.id),
    [mine.id],
  );
  t.deepEqual(agentList.body.data.meta, { mine_count: 0, assigned_count: 0, unassigned_count: 1, all_count: 1 });

  const adminList = await h.request("GET", `${world.base}/conversations`, { token: world.account.admin.token });
  t.deepEqual(adminList.body.data.payload.map((c: { id: number }) => c.id).sort(), [mine.id, hidden.id].sort());

  const shown = await h.request("GET", `${world.base}/conversations/${hidden.id}`, { token: world.account.agent.token });
  t.is(shown.status, 401);
  t.deepEqual(shown.body, NOT_AUTHORIZED);
  t.is((await postMessage(h, world, hidden.id, { content: "sneaky" }, world.account.agent.token)).status, 401);
  t.is((await h.request("GET", `${world.base}/conversations/${hidden.id}`, { token: world.account.admin.token })).status, 200);
  t.deepEqual((await h.request("GET", `${world.base}/conversations/4242`, { token: world.account.admin.token })).body, NOT_FOUND);

  const filtered = await h.request("GET", `${world.base}/conversations?inbox_id=${otherInbox.id}`, { token: world.account.agent.token });
  t.deepEqual(filtered.body.data.payload, []);
});

test("other accounts' users and ids never reach a conversation", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const stranger = await createAccount(h, "Stranger");
  const viaPath = await h.request("GET", `${world.base}/conversations/${conversation.id}`, { token: stranger.admin.token });
  t.is(viaPath.status, 401);
  t.deepEqual(viaPath.body, { error: "You are not authorized to access this account" });
  const ownPath = await accountApi(h, stranger).get(`/conversations/${conversation.id}`);
  t.is(ownPath.status, 404);
  const list = await accountApi(h, stranger).get("/conversations?status=all");
  t.deepEqual(list.body.data.payload, []);
  // Another account's contact cannot be used to open a conversation here.
  const foreign = await conversationWorld(h, "Foreign");
  const crossed = await h.request("POST", `${world.base}/conversations`, {
    token: world.account.admin.token,
    body: { inbox_id: world.inbox.id, contact_id: foreign.contact.id },
  });
  t.is(crossed.status, 404);
  t.is((await h.request("POST", `${world.base}/conversations`, { token: world.account.admin.token, body: { source_id: foreign.sourceId } })).status, 404);
});

test("a conversation's inbox is its own account's: the database refuses one moved into another account's inbox", async (t) => {
  // The lists show an administrator every conversation of the account without looking at inboxes, so
  // this must hold whatever path writes a conversation.
  const world = await conversationWorld(h);
  const foreign = await conversationWorld(h, "Foreign");
  const conversation = await createConversation(h, world);
  const moved = h.knex("conversations").where({ account_id: world.account.id, display_id: conversation.id }).update({ inbox_id: foreign.inbox.id });
  const refused = await t.throwsAsync(moved);
  t.regex(refused!.message, /conversations_inbox_in_account/);
  const list = await h.request("GET", `${world.base}/conversations`, { token: world.account.admin.token });
  t.deepEqual(
    list.body.data.payload.map((c: { inbox_id: number }) => c.inbox_id),
    [world.inbox.id],
  );
});

test("every status at once pages by activity across the statuses, either way, as one ordered list", async (t) => {
  const world = await conversationWorld(h);
  const admin = world.account.admin;
  for (let i = 0; i < 32; i++) await createConversation(h, world);
  // Statuses and activity times interleaved, with ties that the id breaks.
  await h.knex.raw(
    `update conversations set status = (array['open','resolved','pending','snoozed'])[1 + display_id % 4],
       last_activity_at = timestamptz '2026-01-01' + (display_id % 11) * interval '1 minute'
     where account_id = ?`,
    [world.account.id],
  );
  const expected = async (direction: "asc" | "desc", where: Record<string, unknown> = {}) =>
    (
      await h
        .knex("conversations")
        .where({ account_id: world.account.id, ...where })
        .orderBy([
          { column: "last_activity_at", order: direction },
          { column: "id", order: direction },
        ])
    ).map((row: { display_id: number }) => row.display_id);
  const walk = async (query: string) => {
    const ids: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const answer = await h.request("GET", `${world.base}/conversations?${query}&page=${page}`, { token: admin.token });
      t.is(answer.status, 200);
      ids.push(...answer.body.data.payload.map((c: { id: number }) => c.id));
    }
    return ids;
  };
  t.deepEqual(await walk("status=all"), await expected("desc"));
  t.deepEqual(await walk("status=all&sort_by=last_activity_at_asc"), await expected("asc"));
  t.deepEqual(await walk("status=all&assignee_type=unassigned&sort_by=latest"), await expected("desc", { assignee_id: null }));
  t.is((await walk("status=all")).length, 32);
  // The database holds the statuses to those four, so the merge of them shows every conversation.
  await t.throwsAsync(h.knex("conversations").where({ account_id: world.account.id, display_id: 1 }).update({ status: "closed" }), {
    message: /conversations_status_known/,
  });
});

test("the list filters by status, assignee type and labels, counts before the assignee filter, and pages by 25", async (t) => {
  const world = await conversationWorld(h);
  const admin = world.account.admin;
  const created = [];
  for (let i = 0; i < 27; i++) created.push(await createConversation(h, world));
  await h.request("POST", `${world.base}/conversations/${created[0].id}/assignments`, { token: admin.token, body: { assignee_id: admin.id } });
  await h.request("POST", `${world.base}/conversations/${created[1].id}/assignments`, { token: admin.token, body: { assignee_id: world.account.agent.id } });
  await h.request("POST", `${world.base}/conversations/${created[2].id}/toggle_status`, { token: admin.token, body: { status: "resolved" } });
  await h.request("POST", `${world.base}/conversations/${created[3].id}/labels`, { token: admin.token, body: { labels: ["vip"] } });

  const list = (query: string) => h.request("GET", `${world.base}/conversations${query}`, { token: admin.token });
  const page1 = await list("");
  t.is(page1.body.data.payload.length, 25);
  t.deepEqual(page1.body.data.meta, { mine_count: 1, assigned_count: 2, unassigned_count: 24, all_count: 26 });
  const page2 = await list("?page=2");
  t.is(page2.body.data.payload.length, 1);
  const ids = [...page1.body.data.payload, ...page2.body.data.payload].map((c: { id: number }) => c.id);
  t.is(new Set(ids).size, 26);
  // Newest activity first: the labelled conversation got an activity message last.
  t.is(ids[0], created[3].id);

  t.deepEqual(
    (await list("?assignee_type=me")).body.data.payload.map((c: { id: number }) => c.id),
    [created[0].id],
  );
  t.is((await list("?assignee_type=assigned")).body.data.payload.length, 2);
  t.deepEqual((await list("?assignee_type=me")).body.data.meta.all_count, 26);
  t.deepEqual(
    (await list("?status=resolved")).body.data.payload.map((c: { id: number }) => c.id),
    [created[2].id],
  );
  t.is((await list("?status=all")).body.data.meta.all_count, 27);
  t.deepEqual(
    (await list("?labels[]=vip")).body.data.payload.map((c: { id: number }) => c.id),
    [created[3].id],
  );
  t.deepEqual(
    (await list("?labels=nothing,vip")).body.data.payload.map((c: { id: number }) => c.id),
    [created[3].id],
  );

  const meta = await h.request("GET", `${world.base}/conversations/meta`, { token: admin.token });
  t.deepEqual(meta.body, { meta: { mine_count: 1, assigned_count: 2, unassigned_count: 24, all_count: 26 } });

  // An unknown status is the default (open), as ConversationFinder ignores it.
  const unknown = await list("?status=closed");
  t.is(unknown.status, 200);
  t.deepEqual(unknown.body.data.meta, (await list("")).body.data.meta);
});

test("toggle_status resolves, reopens, snoozes until a time, and writes activity messages", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  await postMessage(h, world, conversation.id, { content: "Hi", message_type: "incoming" });
  const toggle = (body: Record<string, unknown>, token = world.account.agent.token) =>
    h.request("POST", `${world.base}/conversations/${conversation.id}/toggle_status`, { token, body });

  const resolved = await toggle({ status: "resolved" });
  t.is(resolved.status, 200);
  t.deepEqual(resolved.body, { meta: {}, payload: { success: true, conversation_id: conversation.id, current_status: "resolved", snoozed_until: null } });
  const row = await h.knex("conversations").where({ account_id: world.account.id, display_id: conversation.id }).first();
  t.is(row.waiting_since, null);

  t.is((await toggle({})).body.payload.current_status, "open");
  const until = Math.floor(Date.now() / 1000) + 3600;
  const snoozed = await toggle({ status: "snoozed", snoozed_until: until });
  t.deepEqual(snoozed.body.payload, {
    success: true,
    conversation_id: conversation.id,
    current_status: "snoozed",
    snoozed_until: new Date(until * 1000).toISOString(),
  });
  t.is((await toggle({})).body.payload.snoozed_until, null);
  const tooFar = await toggle({ status: "snoozed", snoozed_until: 99999999999999 });
  t.is(tooFar.status, 422);
  t.deepEqual(tooFar.body.attributes, ["snoozed_until"]);
  t.is((await toggle({ status: "pending" }, world.account.admin.token)).body.payload.current_status, "pending");

  t.deepEqual(await activityTexts(h, world, conversation.id), [
    "Conversation was marked resolved by Agent Person",
    "Conversation was reopened by Agent Person",
    "Conversation was snoozed by Agent Person",
    "Conversation was reopened by Agent Person",
    "Conversation was marked as pending by Admin Person",
  ]);
  const bad = await toggle({ status: "archived" });
  t.is(bad.status, 422);
  t.deepEqual(bad.body, { message: "Status is not included in the list", attributes: ["status"] });
  t.is((await h.request("POST", `${world.base}/conversations/999/toggle_status`, { token: world.account.admin.token, body: {} })).status, 404);
});

test("priority by toggle_priority and update, with activity messages", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const url = `${world.base}/conversations/${conversation.id}`;
  const token = world.account.admin.token;

  const set = await h.request("POST", `${url}/toggle_priority`, { token, body: { priority: "high" } });
  t.is(set.status, 200);
  t.is(set.body, undefined);
  const updated = await h.request("PATCH", url, { token, body: { priority: "urgent" } });
  t.is(updated.status, 200);
  t.is(updated.body.priority, "urgent");
  t.is((await h.request("POST", `${url}/toggle_priority`, { token, body: { priority: "" } })).status, 200);
  await h.request("POST", `${url}/toggle_priority`, { token, body: { priority: "low" } });
  t.is((await h.request("POST", `${url}/toggle_priority`, { token, body: {} })).status, 200);
  t.is((await h.request("GET", url, { token })).body.priority, null, "an absent priority clears it, as Chatwoot's presence does");
  const bad = await h.request("POST", `${url}/toggle_priority`, { token, body: { priority: "critical" } });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.attributes, ["priority"]);
  t.deepEqual(await activityTexts(h, world, conversation.id), [
    "Admin Person set the priority to high",
    "Admin Person changed the priority from high to urgent",
    "Admin Person removed the priority",
    "Admin Person set the priority to low",
    "Admin Person removed the priority",
  ]);
});

test("labels are listed and replaced", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const url = `${world.base}/conversations/${conversation.id}/labels`;
  const token = world.account.agent.token;
  t.deepEqual((await h.request("GET", url, { token })).body, { payload: [] });
  const set = await h.request("POST", url, { token, body: { labels: ["billing", "vip", "billing"] } });
  t.deepEqual(set.body, { payload: ["billing", "vip"] });
  t.deepEqual((await h.request("POST", url, { token, body: { labels: ["vip", "churn"] } })).body, { payload: ["vip", "churn"] });
  t.deepEqual((await h.request("GET", url, { token })).body, { payload: ["vip", "churn"] });
  t.deepEqual(await activityTexts(h, world, conversation.id), ["Agent Person added billing, vip", "Agent Person added churn", "Agent Person removed billing"]);
  t.is((await h.request("POST", url, { token, body: { labels: [{}] } })).status, 422);
});

test("custom attributes: defined keys are checked, others stored as sent; merge keeps the other keys", async (t) => {
  const world = await conversationWorld(h);
  const define = await h.request("POST", `${world.base}/custom_attribute_definitions`, {
    token: world.account.admin.token,
    body: { attribute_display_name: "Order", attribute_key: "order_id", attribute_display_type: 1, attribute_model: 0 },
  });
  t.is(define.status, 200);
  await h.request("POST", `${world.base}/custom_attribute_definitions`, {
    token: world.account.admin.token,
    body: { attribute_display_name: "Plan", attribute_key: "plan", attribute_display_type: 0, attribute_model: 0 },
  });
  const conversation = await createConversation(h, world, { custom_attributes: { order_id: 7 } });
  t.deepEqual(conversation.custom_attributes, { order_id: 7 });
  const url = `${world.base}/conversations/${conversation.id}/custom_attributes`;
  const token = world.account.agent.token;

  t.deepEqual((await h.request("POST", url, { token, body: { custom_attributes: { plan: "pro" }, merge: true } })).body, {
    custom_attributes: { order_id: 7, plan: "pro" },
  });
  t.deepEqual((await h.request("POST", url, { token, body: { custom_attributes: { plan: "basic" } } })).body, { custom_attributes: { plan: "basic" } });

  const wrongType = await h.request("POST", url, { token, body: { custom_attributes: { order_id: "abc" } } });
  t.is(wrongType.status, 422);
  t.deepEqual(wrongType.body.attributes, ["custom_attributes"]);
  const refusedCreate = await h.request("POST", `${world.base}/conversations`, {
    token,
    body: { inbox_id: world.inbox.id, contact_id: world.contact.id, custom_attributes: { order_id: "abc" } },
  });
  t.is(refusedCreate.status, 422);
  t.deepEqual((await h.request("GET", `${world.base}/conversations/${conversation.id}`, { token })).body.custom_attributes, { plan: "basic" });
  // Keys without a definition are stored as sent, as Chatwoot stores any key.
  t.deepEqual((await h.request("POST", url, { token, body: { custom_attributes: { shoe_size: 44 }, merge: "true" } })).body, {
    custom_attributes: { plan: "basic", shoe_size: 44 },
  });
});

test("assignments answer the agent (or null) and say who assigned whom", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const url = `${world.base}/conversations/${conversation.id}/assignments`;
  const { admin, agent } = world.account;

  const assigned = await h.request("POST", url, { token: admin.token, body: { assignee_id: agent.id } });
  t.is(assigned.status, 200);
  t.like(assigned.body, {
    id: agent.id,
    account_id: world.account.id,
    name: "Agent Person",
    available_name: "Agent Person",
    role: "agent",
    confirmed: true,
    email: agent.email,
  });
  const self = await h.request("POST", url, { token: admin.token, body: { assignee_id: admin.id } });
  t.is(self.body.role, "administrator");
  const cleared = await h.request("POST", url, { token: admin.token, body: { assignee_id: null } });
  t.is(cleared.status, 200);
  t.is(cleared.body, null);
  t.is((await h.request("POST", url, { token: admin.token, body: {} })).body, null);

  const missing = await h.request("POST", url, { token: admin.token, body: { assignee_id: 999999 } });
  t.deepEqual(missing.body, { message: "Assignee must exist", attributes: ["assignee"] });
  const stranger = await createAccount(h, "Elsewhere");
  t.is((await h.request("POST", url, { token: admin.token, body: { assignee_id: stranger.agent.id } })).status, 422);

  t.deepEqual(await activityTexts(h, world, conversation.id), [
    "Assigned to Agent Person by Admin Person",
    "Admin Person self-assigned this conversation",
    "Conversation unassigned by Admin Person",
  ]);
  t.is((await h.request("GET", `${world.base}/conversations/${conversation.id}`, { token: admin.token })).body.meta.assignee, undefined);
});

test("a long conversation shows its newest message and unread_count stops at 10, in the list as in GET one", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const other = await createConversation(h, world);
  const { id } = await h.knex("conversations").where({ account_id: world.account.id, display_id: conversation.id }).first("id");
  // 300 messages, a second apart and all older than the one posted below: 100 of each type.
  await h.knex.raw(
    `insert into messages (account_id, inbox_id, conversation_id, message_type, content, created_at)
     select ?, ?, ?, g % 3, 'old ' || g, now() - g * interval '1 second' - interval '1 hour' from generate_series(1, 300) g`,
    [world.account.id, world.inbox.id, id],
  );
  await noteRawMessages(h.knex, world.account.id);
  const newest = await expectOk(postMessage(h, world, conversation.id, { content: "newest", message_type: "outgoing" }), "newest");
  const oldest = "old 300";

  const shown = await expectOk(h.request("GET", `${world.base}/conversations/${conversation.id}`, { token: world.account.admin.token }), "show");
  t.is(shown.unread_count, 10);
  t.deepEqual(
    shown.messages.map((m: { id: number }) => m.id),
    [newest.id],
  );
  t.is(shown.last_non_activity_message.id, newest.id);
  const listed = await expectOk(h.request("GET", `${world.base}/conversations`, { token: world.account.admin.token }), "list");
  const inList = listed.data.payload.find((c: { id: number }) => c.id === conversation.id);
  t.is(inList.unread_count, 10);
  t.is(inList.last_non_activity_message.id, newest.id);
  t.not(inList.last_non_activity_message.content, oldest);
  const untouched = listed.data.payload.find((c: { id: number }) => c.id === other.id);
  t.like(untouched, { unread_count: 0, messages: [], last_non_activity_message: null });

  // Resolving adds an activity: the newest message, while the newest other one is still the reply.
  await expectOk(
    h.request("POST", `${world.base}/conversations/${conversation.id}/toggle_status`, { token: world.account.admin.token, body: { status: "resolved" } }),
    "resolve",
  );
  const resolved = await expectOk(h.request("GET", `${world.base}/conversations/${conversation.id}`, { token: world.account.admin.token }), "show");
  t.is(resolved.messages[0].message_type, 2);
  t.is(resolved.last_non_activity_message.id, newest.id);
});

test("unread counts, update_last_seen and a contact's conversations", async (t) => {
  const world = await conversationWorld(h);
  const a = await createConversation(h, world);
  const b = await createConversation(h, world);
  await h.request("POST", `${world.base}/conversations/${a.id}/labels`, { token: world.account.admin.token, body: { labels: ["vip"] } });
  for (const content of ["one", "two"]) await postMessage(h, world, a.id, { content, message_type: "incoming" });
  await postMessage(h, world, b.id, { content: "three", message_type: "incoming" });

  const counts = await h.request("GET", `${world.base}/conversations/unread_counts`, { token: world.account.agent.token });
  t.deepEqual(counts.body, { by_inbox: { [world.inbox.id]: 2 }, by_label: { vip: 1 }, by_status: { all: 2, mine: 0, unassigned: 2 }, total: 2 });
  const admin = world.account.admin.token;
  await h.request("POST", `${world.base}/conversations/${b.id}/labels`, { token: admin, body: { labels: ["vip", "billing"] } });
  await h.request("POST", `${world.base}/conversations/${b.id}/assignments`, { token: admin, body: { assignee_id: world.account.agent.id } });
  t.deepEqual((await h.request("GET", `${world.base}/conversations/unread_counts`, { token: world.account.agent.token })).body, {
    by_inbox: { [world.inbox.id]: 2 },
    by_label: { vip: 2, billing: 1 },
    by_status: { all: 2, mine: 1, unassigned: 1 },
    total: 2,
  });
  t.is((await h.request("GET", `${world.base}/conversations/${a.id}`, { token: world.account.agent.token })).body.unread_count, 2);

  const seen = await h.request("POST", `${world.base}/conversations/${a.id}/update_last_seen`, { token: world.account.agent.token });
  t.is(seen.status, 200);
  t.is(seen.body.unread_count, 0);
  t.true(seen.body.agent_last_seen_at > 0);
  t.is((await h.request("GET", `${world.base}/conversations/unread_counts`, { token: world.account.agent.token })).body.total, 1);
  // An agent's reply leaves a seen conversation read; the contact's next message makes it unread again.
  await postMessage(h, world, a.id, { content: "on it", message_type: "outgoing" });
  t.is((await h.request("GET", `${world.base}/conversations/unread_counts`, { token: world.account.agent.token })).body.total, 1);
  await postMessage(h, world, a.id, { content: "thanks", message_type: "incoming" });
  t.is((await h.request("GET", `${world.base}/conversations/unread_counts`, { token: world.account.agent.token })).body.total, 2);
  t.is((await h.request("GET", `${world.base}/conversations/${a.id}`, { token: world.account.agent.token })).body.unread_count, 1);

  const ofContact = await h.request("GET", `${world.base}/contacts/${world.contact.id}/conversations`, { token: world.account.agent.token });
  t.is(ofContact.status, 200);
  t.deepEqual(ofContact.body.payload.map((c: { id: number }) => c.id).sort(), [a.id, b.id].sort());
  t.is(ofContact.body.payload[0].meta.sender.id, world.contact.id);
  t.deepEqual((await h.request("GET", `${world.base}/contacts/999999/conversations`, { token: world.account.agent.token })).body, NOT_FOUND);

  // An agent outside the inbox sees none of the contact's conversations.
  const privateInbox = await createInbox(h, world.account, { name: "Hidden" });
  const { contact } = await createContact(h, world.account, { name: "Hidden Person", inbox_id: privateInbox.id });
  await h.request("POST", `${world.base}/conversations`, { token: world.account.admin.token, body: { inbox_id: privateInbox.id, contact_id: contact.id } });
  t.deepEqual((await h.request("GET", `${world.base}/contacts/${contact.id}/conversations`, { token: world.account.agent.token })).body, { payload: [] });
  t.is((await h.request("GET", `${world.base}/contacts/${contact.id}/conversations`, { token: world.account.admin.token })).body.payload.length, 1);
});
