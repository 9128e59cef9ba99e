import test from "ava";
import { createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { conversationWorld, createConversation } from "./setup";

const h = useHarness(test);

const draftPath = (world: { base: string }, displayId: number | string) => `${world.base}/conversations/${displayId}/draft_messages`;

test("a conversation's draft: none, saved, replaced, shown, cleared, in Chatwoot's shapes", async (t) => {
  const world = await conversationWorld(h);
  const { id } = await createConversation(h, world);
  const as = (token: string) => ({
    get: () => h.request("GET", draftPath(world, id), { token }),
    patch: (body: unknown) => h.request("PATCH", draftPath(world, id), { token, body }),
    put: (body: unknown) => h.request("PUT", draftPath(world, id), { token, body }),
    delete: () => h.request("DELETE", draftPath(world, id), { token }),
  });
  const agent = as(world.account.agent.token);
  const admin = as(world.account.admin.token);

  t.deepEqual([(await agent.get()).status, (await agent.get()).body], [200, { has_draft: false }]);
  const saved = await agent.patch({ draft_message: { message: "Hello, about your order" } });
  t.deepEqual([saved.status, saved.body], [200, undefined]);
  t.deepEqual((await agent.get()).body, { has_draft: true, message: "Hello, about your order" });
  // One draft per conversation, as Chatwoot's CONVERSATION::<id>::DRAFT_MESSAGE: the administrator sees and replaces it.
  t.deepEqual((await admin.get()).body, { has_draft: true, message: "Hello, about your order" });
  t.is((await admin.put({ message: "Bare body, PUT" })).status, 200);
  t.deepEqual((await agent.get()).body, { has_draft: true, message: "Bare body, PUT" });
  const row = await h.knex("conversation_drafts").where({ account_id: world.account.id }).first();
  t.like(row, { message: "Bare body, PUT", updated_by_id: world.account.admin.id });

  const cleared = await agent.delete();
  t.deepEqual([cleared.status, cleared.body], [200, undefined]);
  t.deepEqual((await agent.get()).body, { has_draft: false });
  t.is((await agent.delete()).status, 200, "clearing twice is no error");
});

test("draft leniency: no message saves an empty draft, a number is its digits, other shapes are 422", async (t) => {
  const world = await conversationWorld(h);
  const { id } = await createConversation(h, world);
  const api = accountApi(h, world.account);
  t.is((await api.patch(`/conversations/${id}/draft_messages`, {})).status, 200);
  t.deepEqual((await api.get(`/conversations/${id}/draft_messages`)).body, { has_draft: true, message: "" });
  await api.patch(`/conversations/${id}/draft_messages`, { draft_message: { message: null } });
  t.deepEqual((await api.get(`/conversations/${id}/draft_messages`)).body, { has_draft: true, message: "" });
  await api.patch(`/conversations/${id}/draft_messages`, { draft_message: { message: 42 } });
  t.deepEqual((await api.get(`/conversations/${id}/draft_messages`)).body, { has_draft: true, message: "42" });

  const object = await api.patch(`/conversations/${id}/draft_messages`, { draft_message: { message: { text: "x" } } });
  t.is(object.status, 422);
  t.deepEqual(object.body.attributes, ["message"]);
  const tooLong = await api.patch(`/conversations/${id}/draft_messages`, { message: "x".repeat(150_001) });
  t.deepEqual([tooLong.status, tooLong.body.attributes], [422, ["message"]]);
  const nul = await api.patch(`/conversations/${id}/draft_messages`, { message: "a\u0000b" });
  t.is(nul.status, 422);
  t.deepEqual((await api.get(`/conversations/${id}/draft_messages`)).body, { has_draft: true, message: "42" }, "a refused draft changes nothing");
  t.is((await api.get(`/conversations/0${id}/draft_messages`)).status, 200, "a zero-padded display id is the same conversation");
});

test("drafts are scoped: unknown or other accounts' conversations 404, an agent outside the inbox 401, bots refused", async (t) => {
  const world = await conversationWorld(h);
  const { id } = await createConversation(h, world);
  const privateInbox = await createInbox(h, world.account, { name: "Private" });
  const hidden = await createConversation(h, world, { inbox_id: privateInbox.id });
  await accountApi(h, world.account).patch(`/conversations/${hidden.id}/draft_messages`, { message: "secret" });
  const agentToken = world.account.agent.token;
  const notFound = { error: "Resource could not be found" };
  const denied = { error: "You are not authorized to do this action" };

  for (const method of ["GET", "PATCH", "DELETE"]) {
    const unseen = await h.request(method, draftPath(world, hidden.id), { token: agentToken, body: method === "PATCH" ? { message: "x" } : undefined });
    t.deepEqual([unseen.status, unseen.body], [401, denied], `${method} unseen`);
    for (const bad of [9_999_999, "abc", 0]) {
      const unknown = await h.request(method, draftPath(world, bad), { token: agentToken, body: method === "PATCH" ? { message: "x" } : undefined });
      t.is(unknown.status, 404, `${method} ${bad}`);
    }
  }
  t.deepEqual((await accountApi(h, world.account).get(`/conversations/${hidden.id}/draft_messages`)).body, { has_draft: true, message: "secret" });

  const other = await createAccount(h);
  const foreign = await h.request("GET", draftPath(world, id), { token: other.admin.token });
  t.deepEqual([foreign.status, foreign.body], [401, { error: "You are not authorized to access this account" }]);
  const elsewhere = await h.request("GET", `/api/v1/accounts/${other.id}/conversations/${hidden.id}/draft_messages`, { token: other.admin.token });
  t.deepEqual([elsewhere.status, elsewhere.body], [404, notFound], "display ids are per account");
  const bot = await expectOk(accountApi(h, world.account).post("/agent_bots", { name: "Bot" }), "bot");
  const asBot = await h.request("GET", draftPath(world, id), { token: bot.access_token });
  t.deepEqual([asBot.status, asBot.body], [401, { error: "Access to this endpoint is not authorized for bots" }]);
});

test("50 parallel saves and clears of one draft leave one row holding one of the saved texts, or none", async (t) => {
  const world = await conversationWorld(h);
  const { id } = await createConversation(h, world);
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      i % 10 === 9
        ? h.request("DELETE", draftPath(world, id), { token: world.account.agent.token })
        : h.request("PATCH", draftPath(world, id), { token: world.account.agent.token, body: { message: `draft ${i}` } }),
    ),
  );
  t.deepEqual(
    responses.map((r) => r.status),
    Array(50).fill(200),
  );
  const rows = await h.knex("conversation_drafts").where({ account_id: world.account.id });
  t.true(rows.length <= 1);
  const shown = (await h.request("GET", draftPath(world, id), { token: world.account.agent.token })).body;
  if (rows.length) t.regex(shown.message, /^draft \d+$/);
  else t.deepEqual(shown, { has_draft: false });
  // Final state is settled: one more save is what everyone sees.
  await h.request("PATCH", draftPath(world, id), { token: world.account.admin.token, body: { message: "final" } });
  t.deepEqual((await h.request("GET", draftPath(world, id), { token: world.account.agent.token })).body, { has_draft: true, message: "final" });
});

test("a conversation's draft goes with the conversation", async (t) => {
  const world = await conversationWorld(h);
  const { id } = await createConversation(h, world);
  await accountApi(h, world.account).patch(`/conversations/${id}/draft_messages`, { message: "soon gone" });
  const conversation = await h.knex("conversations").where({ account_id: world.account.id, display_id: id }).first();
  t.is((await h.request("DELETE", `${world.base}/conversations/${id}`, { token: world.account.admin.token })).status, 200);
  t.falsy(await h.knex("conversation_drafts").where({ conversation_id: conversation.id }).first());
});
