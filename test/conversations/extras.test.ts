import test from "ava";
import { addToAccount, createUser } from "../support/factories";
import { createContact, createInbox } from "../support/conversationFactories";
import { expectOk, useHarness } from "../support/harness";
import { activityTexts, type ConversationWorld, conversationWorld, createConversation, postMessage } from "./setup";

const h = useHarness(test);

const NOT_AUTHORIZED = { error: "You are not authorized to do this action" };
const NOT_FOUND = { error: "Resource could not be found" };
const row = (world: ConversationWorld, displayId: number) => h.knex("conversations").where({ account_id: world.account.id, display_id: displayId }).first();
const list = (world: ConversationWorld, query: string, token = world.account.admin.token) =>
  h.request("GET", `${world.base}/conversations?${query}`, { token });
const ids = (response: { body: any }) => response.body.data.payload.map((c: { id: number }) => c.id);

test("administrators delete conversations with their messages; agents cannot", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  await postMessage(h, world, conversation.id, { content: "hello", message_type: "incoming" });
  const path = `${world.base}/conversations/${conversation.id}`;

  const byAgent = await h.request("DELETE", path, { token: world.account.agent.token });
  t.deepEqual([byAgent.status, byAgent.body], [401, NOT_AUTHORIZED]);
  t.deepEqual(await h.request("DELETE", `${world.base}/conversations/999999`, { token: world.account.agent.token }).then((r) => [r.status, r.body]), [
    404,
    NOT_FOUND,
  ]);
  const other = await conversationWorld(h, "Other");
  t.is((await h.request("DELETE", `${other.base}/conversations/${conversation.id}`, { token: other.account.admin.token })).status, 404);

  const { id } = await row(world, conversation.id);
  const deleted = await h.request("DELETE", path, { token: world.account.admin.token });
  t.deepEqual([deleted.status, deleted.body], [200, undefined]);
  t.is(await row(world, conversation.id), undefined);
  t.deepEqual(await h.knex("messages").where("conversation_id", id).select("id"), []);
  t.is((await h.request("GET", path, { token: world.account.admin.token })).status, 404);
});

test("mute resolves and unmute writes its activity; both answer 200 with no body", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}`;
  const muted = await h.request("POST", `${path}/mute`, { token: world.account.agent.token });
  t.deepEqual([muted.status, muted.body], [200, undefined]);
  t.like(await row(world, conversation.id), { muted: true, status: "resolved" });
  t.true((await expectOk(h.request("GET", path, { token: world.account.admin.token }), "show")).muted);

  const unmuted = await h.request("POST", `${path}/unmute`, { token: world.account.admin.token });
  t.deepEqual([unmuted.status, unmuted.body], [200, undefined]);
  t.like(await row(world, conversation.id), { muted: false, status: "resolved" });
  t.deepEqual(await activityTexts(h, world, conversation.id), [
    "Conversation was marked resolved by Agent Person",
    "Agent Person has muted the conversation",
    "Admin Person has unmuted the conversation",
  ]);

  // An agent outside the inbox may not.
  const outsider = await createUser(h, { name: "Outsider" });
  await addToAccount(h, world.account.id, outsider.id, "agent");
  t.deepEqual(await h.request("POST", `${path}/unmute`, { token: outsider.token }).then((r) => [r.status, r.body]), [401, NOT_AUTHORIZED]);
});

test("unread sets the last seen times just before the latest incoming message", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}`;
  const empty = await h.request("POST", `${path}/unread`, { token: world.account.agent.token });
  t.deepEqual([empty.status, empty.body], [204, undefined]);
  t.like(await row(world, conversation.id), { agent_last_seen_at: null, assignee_last_seen_at: null });

  const message = await expectOk(postMessage(h, world, conversation.id, { content: "hello", message_type: "incoming" }), "message");
  await expectOk(h.request("POST", `${path}/update_last_seen`, { token: world.account.agent.token }), "seen");
  t.is((await expectOk(h.request("GET", path, { token: world.account.agent.token }), "show")).unread_count, 0);
  t.is((await h.request("POST", `${path}/unread`, { token: world.account.agent.token })).status, 204);
  const after = await row(world, conversation.id);
  const incoming = await h.knex("messages").where("id", message.id).first("created_at");
  t.is(after.agent_last_seen_at.getTime(), incoming.created_at.getTime() - 1000);
  t.deepEqual(after.assignee_last_seen_at, after.agent_last_seen_at);
  t.is((await expectOk(h.request("GET", path, { token: world.account.agent.token }), "show")).unread_count, 1);
});

test("participants are listed, added, replaced and removed; only agents with inbox access", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}/participants`;
  const agent = world.account.agent;
  const admin = world.account.admin;

  t.deepEqual(await h.request("GET", path, { token: agent.token }).then((r) => [r.status, r.body]), [200, []]);
  const added = await h.request("POST", path, { token: agent.token, body: { user_ids: [agent.id, admin.id] } });
  t.is(added.status, 200);
  t.deepEqual(
    added.body.map((a: { id: number }) => a.id),
    [agent.id, admin.id],
  );
  t.like(added.body[0], { id: agent.id, role: "agent", email: agent.email, account_id: world.account.id });
  t.deepEqual((await h.request("POST", path, { token: agent.token, body: { user_ids: [agent.id] } })).body, [], "nobody new");

  const outsider = await createUser(h, { name: "Outsider" });
  await addToAccount(h, world.account.id, outsider.id, "agent");
  const refused = await h.request("POST", path, { token: admin.token, body: { user_ids: [outsider.id] } });
  t.deepEqual([refused.status, refused.body], [422, { message: "User must have inbox access", attributes: ["user"] }]);
  const stranger = await conversationWorld(h, "Stranger");
  t.is((await h.request("PATCH", path, { token: admin.token, body: { user_ids: [stranger.account.admin.id] } })).status, 422);
  t.deepEqual(await h.request("GET", path, { token: outsider.token }).then((r) => [r.status, r.body]), [401, NOT_AUTHORIZED]);

  const replaced = await h.request("PATCH", path, { token: admin.token, body: { user_ids: [admin.id] } });
  t.deepEqual([replaced.status, replaced.body.map((a: { id: number }) => a.id)], [200, [admin.id]]);
  const removed = await h.request("DELETE", path, { token: admin.token, body: { user_ids: [admin.id, outsider.id] } });
  t.deepEqual([removed.status, removed.body], [200, undefined]);
  t.deepEqual((await h.request("GET", path, { token: admin.token })).body, []);
  t.is((await h.request("POST", path, { token: admin.token, body: { user_ids: "everyone" } })).status, 422);

  // Racing additions leave one row each.
  await Promise.all(Array.from({ length: 50 }, () => h.request("POST", path, { token: admin.token, body: { user_ids: [agent.id, admin.id] } })));
  const { id } = await row(world, conversation.id);
  t.is((await h.knex("conversation_participants").where("conversation_id", id)).length, 2);
});

test("the list honours q, sort_by, source_id, conversation_type and updated_within; unsupported values are 422", async (t) => {
  const world = await conversationWorld(h);
  const admin = world.account.admin.token;
  const first = await createConversation(h, world, { priority: "low" });
  const second = await createConversation(h, world);
  const { contact, sourceId } = await createContact(h, world.account, { inbox_id: world.inbox.id, email: `other-${world.account.id}@example.com` });
  const third = await createConversation(h, world, { contact_id: contact.id, source_id: sourceId });
  await expectOk(h.request("POST", `${world.base}/conversations/${first.id}/toggle_priority`, { token: admin, body: { priority: "urgent" } }), "priority");
  await expectOk(h.request("POST", `${world.base}/conversations/${second.id}/toggle_priority`, { token: admin, body: { priority: "low" } }), "priority");
  await expectOk(postMessage(h, world, second.id, { content: "My Refund please", message_type: "incoming" }), "message");
  await expectOk(postMessage(h, world, third.id, { content: "refund note", message_type: "outgoing", private: true }), "private");
  await expectOk(h.request("POST", `${world.base}/conversations/${second.id}/toggle_status`, { token: admin, body: { status: "resolved" } }), "resolve");

  // q matches incoming and outgoing messages (private notes too, as Chatwoot's filter does), whatever the status.
  const searched = await list(world, "q=refund");
  t.deepEqual(ids(searched).sort(), [second.id, third.id].sort());
  t.like(searched.body.data.meta, { all_count: 2 });
  t.deepEqual(ids(await list(world, "q=nothing-like-this")), []);

  t.deepEqual(ids(await list(world, "sort_by=created_at_asc")), [first.id, third.id]);
  t.deepEqual(ids(await list(world, "sort_by=created_at_desc")), [third.id, first.id]);
  t.deepEqual(ids(await list(world, "status=all&sort_by=priority_desc")), [first.id, second.id, third.id]);
  t.deepEqual(ids(await list(world, "status=all&sort_by=priority_asc")), [second.id, first.id, third.id]);
  t.deepEqual(ids(await list(world, "status=all&sort_by=sort_on_created_at")), [first.id, second.id, third.id]);

  t.deepEqual(ids(await list(world, `source_id=${encodeURIComponent(sourceId!)}`)), [third.id]);
  t.deepEqual(ids(await list(world, "source_id=unknown")), []);

  // unattended: no reply yet, or waiting for one.
  t.deepEqual(ids(await list(world, "status=all&conversation_type=unattended&sort_by=created_at_asc")), [first.id, second.id, third.id]);
  await expectOk(postMessage(h, world, first.id, { content: "Hi, how can I help?", message_type: "outgoing" }), "reply");
  t.deepEqual(ids(await list(world, "status=all&conversation_type=unattended&sort_by=created_at_asc")), [second.id, third.id]);

  // participating: the caller's.
  const agent = world.account.agent;
  await expectOk(h.request("POST", `${world.base}/conversations/${third.id}/participants`, { token: admin, body: { user_ids: [agent.id] } }), "participant");
  t.deepEqual(ids(await list(world, "conversation_type=participating", agent.token)), [third.id]);
  t.deepEqual(ids(await list(world, "conversation_type=participating")), []);

  // mention: private notes naming the caller.
  await expectOk(
    postMessage(h, world, first.id, { content: `Look [@Agent](mention://user/${agent.id}/Agent)`, message_type: "outgoing", private: true }),
    "mention",
  );
  t.deepEqual(ids(await list(world, "conversation_type=mention", agent.token)), [first.id]);
  t.deepEqual(ids(await list(world, "conversation_type=mention")), []);

  // updated_within: everything changed recently, unpaginated.
  await h
    .knex("conversations")
    .where({ account_id: world.account.id, display_id: third.id })
    .update({ updated_at: new Date(Date.now() - 3600_000) });
  t.deepEqual(ids(await list(world, "status=all&updated_within=600&sort_by=created_at_asc")), [first.id, second.id]);

  // Unknown values of list parameters fall back to their defaults, as ConversationFinder ignores them.
  const byDefault = ids(await list(world, ""));
  for (const query of ["sort_by=best", "conversation_type=archived", "status=closed", "assignee_type=them"]) {
    const listed = await list(world, query);
    t.is(listed.status, 200, query);
    t.deepEqual(ids(listed), byDefault, query);
  }
  for (const query of ["updated_within=soon", "team_id=abc"]) {
    const refused = await list(world, query);
    t.is(refused.status, 422, query);
    t.deepEqual(Object.keys(refused.body), ["message", "attributes"], query);
  }
});

test("an agent's list covers only their inboxes with every parameter", async (t) => {
  const world = await conversationWorld(h);
  const elsewhere = await createInbox(h, world.account, { name: "Elsewhere" });
  const { contact } = await createContact(h, world.account, { inbox_id: elsewhere.id, email: `x-${world.account.id}@example.com` });
  const hidden = await expectOk(
    h.request("POST", `${world.base}/conversations`, { token: world.account.admin.token, body: { inbox_id: elsewhere.id, contact_id: contact.id } }),
    "hidden",
  );
  await expectOk(postMessage(h, world, hidden.id, { content: "secret refund", message_type: "incoming" }), "message");
  t.deepEqual(ids(await list(world, "q=refund", world.account.agent.token)), []);
  t.deepEqual(ids(await list(world, "q=refund")), [hidden.id]);
});
