import { randomUUID } from "node:crypto";
import test from "ava";
import { createUser } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";
import { conversationWorld, createConversation, postMessage } from "../conversations/setup";

const h = useHarness(test);

/** Rails' `resources` answers `update` on PUT as on PATCH: clients such as n8n and Evolution API send PUT. */
test("PUT updates what PATCH updates: account, agent bot, message status, participants", async (t) => {
  const world = await conversationWorld(h);
  const token = world.account.admin.token;
  const put = (path: string, body: unknown) => h.request("PUT", `${world.base}${path}`, { token, body });

  const account = await h.request("PUT", world.base, { token, body: { name: "Renamed by PUT" } });
  t.is(account.status, 200);
  t.is(account.body.name, "Renamed by PUT");

  const bot = await expectOk(
    h.request("POST", `${world.base}/agent_bots`, { token, body: { name: "Bot", outgoing_url: "https://bot.example.com/in" } }),
    "bot",
  );
  const renamedBot = await put(`/agent_bots/${bot.id}`, { name: "Bot by PUT" });
  t.is(renamedBot.status, 200);
  t.is(renamedBot.body.name, "Bot by PUT");

  const conversation = await createConversation(h, world);
  const message = (await postMessage(h, world, conversation.id, { content: "Sent to the channel" })).body;
  const status = await put(`/conversations/${conversation.id}/messages/${message.id}`, { status: "read" });
  t.is(status.status, 200);
  t.like(status.body, { id: message.id, status: "read" });

  const participants = await put(`/conversations/${conversation.id}/participants`, { user_ids: [world.account.agent.id] });
  t.is(participants.status, 200);
  t.deepEqual(
    participants.body.map((user: { id: number }) => user.id),
    [world.account.agent.id],
  );
});

test("PUT updates what PATCH updates on the platform API: users, accounts, agent bots", async (t) => {
  const token = h.platformToken;
  const put = (path: string, body: unknown) => h.request("PUT", `/platform/api/v1${path}`, { token, body });

  const user = await createUser(h);
  const renamedUser = await put(`/users/${user.id}`, { name: "User by PUT" });
  t.is(renamedUser.status, 200);
  t.is(renamedUser.body.name, "User by PUT");

  const account = await expectOk(h.request("POST", "/platform/api/v1/accounts", { token, body: { name: "Platform" } }), "account");
  const renamedAccount = await put(`/accounts/${account.id}`, { name: "Account by PUT" });
  t.is(renamedAccount.status, 200);
  t.is(renamedAccount.body.name, "Account by PUT");

  const bot = await expectOk(
    h.request("POST", "/platform/api/v1/agent_bots", { token, body: { name: `System ${randomUUID()}`, outgoing_url: "https://system.example.com/hook" } }),
    "bot",
  );
  const renamedBot = await put(`/agent_bots/${bot.id}`, { name: "System bot by PUT" });
  t.is(renamedBot.status, 200);
  t.is(renamedBot.body.name, "System bot by PUT");
});

test("PUT keeps answering on the resources that already took it: contacts, inboxes, webhooks, teams, labels, canned responses", async (t) => {
  const world = await conversationWorld(h);
  const token = world.account.admin.token;
  const put = (path: string, body: unknown) => h.request("PUT", `${world.base}${path}`, { token, body });
  const post = (path: string, body: unknown) => expectOk(h.request("POST", `${world.base}${path}`, { token, body }), path);

  t.is((await put(`/contacts/${world.contact.id}`, { name: "Contact by PUT" })).body.payload.name, "Contact by PUT");
  t.is((await put(`/inboxes/${world.inbox.id}`, { name: "Inbox by PUT" })).body.name, "Inbox by PUT");
  const webhook = (await post("/webhooks", { url: "https://hooks.example.com/a" })).payload.webhook;
  t.is((await put(`/webhooks/${webhook.id}`, { name: "Webhook by PUT" })).body.payload.webhook.name, "Webhook by PUT");
  const team = await post("/teams", { name: "support" });
  t.is((await put(`/teams/${team.id}`, { description: "by PUT" })).body.description, "by PUT");
  const label = await post("/labels", { title: "vip" });
  t.is((await put(`/labels/${label.id}`, { description: "by PUT" })).body.description, "by PUT");
  const canned = await post("/canned_responses", { short_code: "hi", content: "Hello" });
  t.is((await put(`/canned_responses/${canned.id}`, { content: "Hello by PUT" })).body.content, "Hello by PUT");
});

test("the OpenAPI document lists PUT beside PATCH for updates", async (t) => {
  const { body } = await h.request("GET", "/api-docs/openapi.json");
  for (const path of [
    "/api/v1/accounts/{id}",
    "/api/v1/accounts/{account_id}/agent_bots/{id}",
    "/platform/api/v1/users/{id}",
    "/platform/api/v1/accounts/{id}",
    "/platform/api/v1/agent_bots/{id}",
    "/api/v1/accounts/{account_id}/conversations/{conversation_id}/messages/{id}",
  ]) {
    t.truthy(body.paths[path]?.patch, `PATCH ${path}`);
    t.truthy(body.paths[path]?.put, `PUT ${path}`);
  }
});
