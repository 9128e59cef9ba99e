import test from "ava";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { conversationWorld, createConversation, postMessage } from "../conversations/setup";

const h = useHarness(test);

/** An account where the agent sees one inbox and not another, each with a conversation and messages. */
async function searchWorld() {
  const world = await conversationWorld(h);
  const { account } = world;
  const admin = accountApi(h, account);
  const seen = await createConversation(h, world, { assignee_id: account.agent.id });
  await expectOk(postMessage(h, world, seen.id, { content: "Where is my parcel tracking number?" }), "message");
  const hidden = await createInbox(h, account, { name: "Hidden" });
  await setInboxMembers(h, account, hidden.id, [account.admin.id]);
  const { contact: vip } = await createContact(h, account, { name: "Parcel Person", email: `vip-${account.id}@example.com`, inbox_id: hidden.id });
  const unseen = await expectOk(admin.post("/conversations", { inbox_id: hidden.id, contact_id: vip.id }), "unseen");
  await expectOk(postMessage(h, { ...world, contact: vip }, unseen.id, { content: "parcel damaged on arrival" }), "unseen message");
  return { world, account, admin, agent: accountApi(h, account, account.agent.token), seen, unseen, vip };
}

test("search returns the four kinds in Chatwoot's shapes, scoped to the caller's inboxes", async (t) => {
  const { world, account, admin, agent, seen, unseen, vip } = await searchWorld();

  const all = await agent.get("/search?q=parcel");
  t.is(all.status, 200);
  t.deepEqual(Object.keys(all.body.payload).sort(), ["contacts", "conversations", "messages"]);
  t.deepEqual(
    all.body.payload.messages.map((m: { conversation_id: number }) => m.conversation_id),
    [seen.id],
    "the agent finds only messages of their inboxes",
  );
  const [message] = all.body.payload.messages;
  t.like(message, { content: "Where is my parcel tracking number?", message_type: 1, content_type: "text", inbox_id: world.inbox.id });
  t.like(message.inbox, { id: world.inbox.id, name: "Support", channel_type: "Channel::Api" });
  t.like(message.sender, { id: account.admin.id, type: "user" });
  t.is(typeof message.created_at, "number");
  t.deepEqual(
    all.body.payload.contacts.map((c: { id: number }) => c.id),
    [vip.id],
    "contacts are the account's",
  );
  t.deepEqual(Object.keys(all.body.payload.contacts[0]).sort(), [
    "additional_attributes",
    "email",
    "id",
    "identifier",
    "last_activity_at",
    "name",
    "phone_number",
  ]);

  const byAdmin = await expectOk(admin.get("/search/messages?q=PARCEL"), "admin messages");
  t.deepEqual(Object.keys(byAdmin.payload), ["messages"]);
  t.deepEqual(byAdmin.payload.messages.map((m: { conversation_id: number }) => m.conversation_id).sort(), [seen.id, unseen.id].sort());

  const conversations = await expectOk(admin.get("/search/conversations?q=Parcel Person"), "conversations");
  t.deepEqual(Object.keys(conversations.payload), ["conversations"]);
  t.is(conversations.payload.conversations.length, 1);
  const [found] = conversations.payload.conversations;
  t.like(found, { id: unseen.id, account_id: account.id });
  t.like(found.contact, { id: vip.id, name: "Parcel Person" });
  t.like(found.inbox, { name: "Hidden" });
  t.deepEqual(found.agent, {});
  t.is(found.message.content, "parcel damaged on arrival");
  t.deepEqual(found.additional_attributes, {});
  t.deepEqual((await expectOk(agent.get("/search/conversations?q=Parcel Person"), "agent")).payload.conversations, [], "not in the agent's inboxes");

  const byDisplayId = await expectOk(agent.get(`/search/conversations?q=${seen.id}`), "display id");
  t.true(
    byDisplayId.payload.conversations.some(
      (c: { id: number; agent: { id: number; role: string } }) => c.id === seen.id && c.agent.id === account.agent.id && c.agent.role === "agent",
    ),
  );
  t.deepEqual(Object.keys((await expectOk(agent.get("/search/contacts?q=vip"), "contacts")).payload), ["contacts"]);
});

test("pages hold 15, newest first; other accounts and outsiders see nothing", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const admin = accountApi(h, account);
  const conversation = await createConversation(h, world);
  for (let i = 0; i < 17; i++) await expectOk(postMessage(h, world, conversation.id, { content: `needle ${i}` }), `message ${i}`);
  const first = await expectOk(admin.get("/search/messages?q=needle"), "page 1");
  t.is(first.payload.messages.length, 15);
  t.is(first.payload.messages[0].content, "needle 16");
  const second = await expectOk(admin.get("/search/messages?q=needle&page=2"), "page 2");
  t.deepEqual(
    second.payload.messages.map((m: { content: string }) => m.content),
    ["needle 1", "needle 0"],
  );

  const other = await conversationWorld(h, "Other");
  t.deepEqual((await expectOk(accountApi(h, other.account).get("/search/messages?q=needle"), "other")).payload.messages, []);
  t.is((await h.request("GET", `/api/v1/accounts/${account.id}/search?q=needle`, { token: other.account.admin.token })).status, 401);
  t.is((await admin.get("/search?page=abc")).status, 200, "a page that is not a number is the first, as Kaminari reads it");
});

test("with search_with_gin, messages match the words as a phrase by full-text search", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const conversation = await createConversation(h, world);
  await expectOk(postMessage(h, world, conversation.id, { content: "Parcels delivered yesterday" }), "message");
  await expectOk(postMessage(h, world, conversation.id, { content: "delivered the parcel" }), "other order");
  await h
    .knex("accounts")
    .where({ id: account.id })
    .update({ features: h.knex.raw("array_append(features, 'search_with_gin')") });
  const found = await expectOk(accountApi(h, account).get(`/search/messages?q=${encodeURIComponent("parcel delivered")}`), "phrase");
  t.deepEqual(
    found.payload.messages.map((m: { content: string }) => m.content),
    ["Parcels delivered yesterday"],
    "stemmed words in the phrase's order",
  );
  t.is((await accountApi(h, account).get(`/search/messages?q=${encodeURIComponent("a & | ! (")}`)).status, 200, "operators are words, never a syntax error");
});

test("conversations/search answers the conversation list of conversations with a matching message", async (t) => {
  const { admin, seen, unseen } = await searchWorld();
  const found = await admin.get("/conversations/search?q=tracking");
  t.is(found.status, 200);
  t.deepEqual(
    found.body.data.payload.map((c: { id: number }) => c.id),
    [seen.id],
  );
  t.like(found.body.data.meta, { all_count: 1 });
  const both = await expectOk(admin.get("/conversations/search?q=parcel"), "both");
  t.deepEqual(both.data.payload.map((c: { id: number }) => c.id).sort(), [seen.id, unseen.id].sort());
});
