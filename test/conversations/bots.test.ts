import test from "ava";
import { useHarness } from "../support/harness";
import { activityTexts, conversationWorld, createConversation, type ConversationWorld } from "./setup";

const h = useHarness(test);

const BOTS_DENIED = { error: "Access to this endpoint is not authorized for bots" };

async function botOf(world: ConversationWorld, name = "Helper Bot") {
  const created = await h.request("POST", `${world.base}/agent_bots`, {
    token: world.account.admin.token,
    body: { name, outgoing_url: "https://bot.test/hook" },
  });
  return { id: created.body.id as number, token: created.body.access_token as string };
}

test("an agent bot may call exactly Chatwoot's bot endpoints, with its own token", async (t) => {
  const world = await conversationWorld(h);
  const bot = await botOf(world);
  const conversation = await createConversation(h, world);
  const url = `${world.base}/conversations/${conversation.id}`;
  const call = (method: string, path: string, body?: unknown) => h.request(method, path, { token: bot.token, body });

  const created = await call("POST", `${world.base}/conversations`, { source_id: world.sourceId });
  t.is(created.status, 200);
  t.is((await call("GET", url)).status, 200);
  t.is((await call("PATCH", url, { priority: "high" })).body.priority, "high");
  t.is((await call("POST", `${url}/toggle_priority`, { priority: "low" })).status, 200);
  t.is((await call("POST", `${url}/toggle_typing_status`, { typing_status: "on" })).status, 200);
  t.deepEqual((await call("POST", `${url}/labels`, { labels: ["bot"] })).body, { payload: ["bot"] });
  t.deepEqual((await call("GET", `${url}/labels`)).body, { payload: ["bot"] });
  t.is((await call("POST", `${url}/custom_attributes`, { custom_attributes: {} })).status, 200);
  const assigned = await call("POST", `${url}/assignments`, { assignee_id: bot.id, assignee_type: "AgentBot" });
  t.like(assigned.body, { id: bot.id, name: "Helper Bot" });
  t.false("access_token" in assigned.body);
  const shown = await call("GET", url);
  t.deepEqual(shown.body.meta.assignee, {
    id: bot.id,
    name: "Helper Bot",
    description: null,
    thumbnail: "",
    outgoing_url: "https://bot.test/hook",
    bot_type: "webhook",
    assignee_type: "AgentBot",
  });
  t.is(shown.body.meta.assignee_type, "AgentBot");
  const message = await call("POST", `${url}/messages`, { content: "I am a bot" });
  t.is(message.status, 200);
  t.like(message.body, { sender_type: "AgentBot", sender_id: bot.id, message_type: 1 });
  t.like(message.body.sender, { id: bot.id, type: "agent_bot", name: "Helper Bot" });
  t.like((await call("POST", `${url}/toggle_status`, { status: "resolved" })).body.payload, { current_status: "resolved", success: true });
  t.deepEqual(await activityTexts(h, world, conversation.id), [
    "Helper Bot set the priority to high",
    "Helper Bot changed the priority from high to low",
    "Helper Bot added bot",
    "Assigned to Helper Bot by Helper Bot",
    "Conversation was marked resolved by Helper Bot",
  ]);

  for (const [method, path] of [
    ["GET", `${world.base}/conversations`],
    ["GET", `${world.base}/conversations/meta`],
    ["GET", `${world.base}/conversations/unread_counts`],
    ["GET", `${url}/messages`],
    ["POST", `${url}/update_last_seen`],
    ["DELETE", `${url}/messages/${message.body.id}`],
    ["PATCH", `${url}/messages/${message.body.id}`],
    ["GET", `${world.base}/contacts/${world.contact.id}/conversations`],
    ["GET", `${world.base}/webhooks`],
  ] as const) {
    const denied = await call(method, path, method === "GET" ? undefined : { status: "read" });
    t.is(denied.status, 401, `${method} ${path}`);
    t.deepEqual(denied.body, BOTS_DENIED, `${method} ${path}`);
  }
});

test("a bot opening a pending conversation hands it off; bots of other accounts are refused", async (t) => {
  const world = await conversationWorld(h);
  const bot = await botOf(world, "Triage");
  const conversation = await createConversation(h, world, { status: "pending" });
  const handoff = await h.request("POST", `${world.base}/conversations/${conversation.id}/toggle_status`, { token: bot.token, body: { status: "open" } });
  t.deepEqual(handoff.body.payload, { success: null, conversation_id: conversation.id, current_status: "open", snoozed_until: null });
  const row = await h.knex("conversations").where({ account_id: world.account.id, display_id: conversation.id }).first();
  t.truthy(row.waiting_since, "the conversation now waits for a human");
  t.deepEqual(await activityTexts(h, world, conversation.id), ["Conversation was reopened by Triage"]);

  const other = await conversationWorld(h, "Other");
  const refused = await h.request("GET", `${other.base}/conversations/1`, { token: bot.token });
  t.is(refused.status, 401);
  t.deepEqual(refused.body, { error: "Bot is not authorized to access this account" });
  t.deepEqual((await h.request("GET", `${world.base}/conversations/1`, { token: "nonsense" })).body, { error: "Invalid Access Token" });
});

test("a conversation in an inbox with an active bot starts pending", async (t) => {
  const world = await conversationWorld(h);
  const bot = await botOf(world);
  await h.knex("agent_bot_inboxes").insert({ account_id: world.account.id, inbox_id: world.inbox.id, agent_bot_id: bot.id, status: "active" });
  const conversation = await createConversation(h, world, { status: "open" });
  t.is(conversation.status, "pending");
  // A contact writing into a resolved conversation of a bot inbox goes back to the bot.
  await h.request("POST", `${world.base}/conversations/${conversation.id}/toggle_status`, { token: world.account.admin.token, body: { status: "resolved" } });
  await h.request("POST", `${world.base}/conversations/${conversation.id}/messages`, {
    token: world.account.admin.token,
    body: { content: "back", message_type: "incoming" },
  });
  t.is((await h.request("GET", `${world.base}/conversations/${conversation.id}`, { token: world.account.admin.token })).body.status, "pending");
});
