import test from "ava";
import { addToAccount, createUser } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { setInboxMembers, createInbox } from "../support/conversationFactories";
import { activityTexts, conversationWorld, createConversation } from "../conversations/setup";
import { onlyRunResult } from "../support/workflowRuns";
import type { MacroExecutionResult } from "../../workflows/macroExecution";

const h = useHarness(test, { worker: true });

const labelsAndNote = [
  { action_name: "add_label", action_params: ["vip"] },
  { action_name: "add_private_note", action_params: ["Checked by macro"] },
  { action_name: "assign_agent", action_params: ["self"] },
  { action_name: "change_status", action_params: ["pending"] },
];

test("create answers {payload: macro} with its author; an agent's macro is always personal", async (t) => {
  const { account } = await conversationWorld(h);
  const admin = accountApi(h, account);
  const created = await admin.post("/macros", { macro: { name: "Triage", visibility: "global", actions: labelsAndNote } });
  t.is(created.status, 200);
  const row = await h.knex("macros").where({ id: created.body.payload.id }).first();
  t.like(created.body.payload, { id: Number(row.id), name: "Triage", visibility: "global", account_id: account.id, actions: labelsAndNote });
  t.like(created.body.payload.created_by, { id: account.admin.id, email: account.admin.email });
  t.like(created.body.payload.updated_by, { id: account.admin.id });

  const agents = await accountApi(h, account, account.agent.token).post("/macros", { name: "Mine", visibility: "global", actions: [] });
  t.is(agents.status, 200);
  t.is(agents.body.payload.visibility, "personal");
});

test("validation answers Chatwoot's 422 for a blank name and unsupported actions", async (t) => {
  const { account } = await conversationWorld(h);
  const api = accountApi(h, account);
  const blank = await api.post("/macros", { name: " ", actions: [] });
  t.deepEqual([blank.status, blank.body], [422, { error: { name: ["can't be blank"] } }]);
  const unsupported = await api.post("/macros", {
    name: "Bad",
    actions: [{ action_name: "open_conversation" }, { action_name: "add_label", action_params: ["x"] }, { action_name: "rm_rf" }],
  });
  t.deepEqual([unsupported.status, unsupported.body], [422, { error: { actions: ["Macro execution actions open_conversation,rm_rf not supported."] } }]);
  t.is((await h.knex("macros").where({ account_id: account.id })).length, 0);
});

test("index lists global macros and the caller's own, by id; others' personal macros are refused", async (t) => {
  const { account } = await conversationWorld(h);
  const other = await createUser(h, { name: "Other Agent" });
  await addToAccount(h, account.id, other.id, "agent");
  const admin = accountApi(h, account);
  const agent = accountApi(h, account, account.agent.token);
  const otherApi = accountApi(h, account, other.token);
  const global = (await expectOk(admin.post("/macros", { name: "Global", visibility: "global", actions: [] }), "global")).payload;
  const adminPersonal = (await expectOk(admin.post("/macros", { name: "Admin's", actions: [] }), "admin personal")).payload;
  const agentPersonal = (await expectOk(agent.post("/macros", { name: "Agent's", actions: [] }), "agent personal")).payload;

  const ids = async (api: typeof admin) => (await expectOk(api.get("/macros"), "index")).payload.map((m: { id: number }) => m.id);
  t.deepEqual(await ids(agent), [global.id, agentPersonal.id]);
  t.deepEqual(await ids(admin), [global.id, adminPersonal.id]);
  t.deepEqual(await ids(otherApi), [global.id]);

  t.is((await otherApi.get(`/macros/${agentPersonal.id}`)).status, 401);
  t.is((await admin.get(`/macros/${agentPersonal.id}`)).status, 401, "a personal macro is its author's alone");
  t.is((await otherApi.post(`/macros/${agentPersonal.id}/execute`, { conversation_ids: [1] })).status, 401);
  t.is((await agent.get(`/macros/${global.id}`)).status, 200);
  t.is((await agent.get(`/macros/999999999`)).status, 404);
});

test("update: the author, or an administrator on a global macro; delete also when its author left", async (t) => {
  const { account } = await conversationWorld(h);
  const admin = accountApi(h, account);
  const agent = accountApi(h, account, account.agent.token);
  const leaver = await createUser(h, { name: "Leaver" });
  await addToAccount(h, account.id, leaver.id, "administrator");
  const leaverApi = accountApi(h, account, leaver.token);
  const agentsOwn = (await expectOk(agent.post("/macros", { name: "Agent's", actions: [] }), "agent's")).payload;
  const leaversGlobal = (await expectOk(leaverApi.post("/macros", { name: "Leaver's", visibility: "global", actions: [] }), "leaver's")).payload;

  t.is((await agent.patch(`/macros/${leaversGlobal.id}`, { name: "Hijack" })).status, 401);
  const renamed = await admin.patch(`/macros/${leaversGlobal.id}`, { macro: { name: "Renamed", actions: labelsAndNote } });
  t.is(renamed.status, 200);
  t.like(renamed.body.payload, { name: "Renamed", visibility: "global", actions: labelsAndNote });
  t.is(renamed.body.payload.created_by.id, leaver.id);
  t.is(renamed.body.payload.updated_by.id, account.admin.id);
  const asGlobal = await agent.put(`/macros/${agentsOwn.id}`, { visibility: "global", name: "Still mine" });
  t.like(asGlobal.body.payload, { visibility: "personal", name: "Still mine" });
  const bad = await agent.patch(`/macros/${agentsOwn.id}`, { actions: [{ action_name: "nope" }] });
  t.deepEqual([bad.status, bad.body], [422, { error: { actions: ["Macro execution actions nope not supported."] } }]);

  t.is((await admin.delete(`/macros/${leaversGlobal.id}`)).status, 401, "its author is still in the account");
  await expectOk(admin.delete(`/agents/${leaver.id}`), "remove the author");
  const deleted = await admin.delete(`/macros/${leaversGlobal.id}`);
  t.deepEqual([deleted.status, deleted.body], [200, undefined]);
  t.is((await admin.delete(`/macros/${agentsOwn.id}`)).status, 401, "an agent's personal macro");
  t.is((await agent.delete(`/macros/${agentsOwn.id}`)).status, 200);
  t.is((await h.knex("macros").where({ account_id: account.id })).length, 0);
});

test("execute answers 200 empty and runs the actions in order on each conversation, as the caller", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const agent = accountApi(h, account, account.agent.token);
  const first = await createConversation(h, world);
  const second = await createConversation(h, world);
  // A conversation in an inbox the agent is not a member of: filtered out, as PermissionFilterService does.
  const hidden = await createInbox(h, account, { name: "Hidden" });
  await setInboxMembers(h, account, hidden.id, [account.admin.id]);
  const unseen = await expectOk(accountApi(h, account).post("/conversations", { inbox_id: hidden.id, contact_id: world.contact.id }), "unseen");
  const macro = (await expectOk(agent.post("/macros", { name: "Triage", actions: labelsAndNote }), "macro")).payload;

  const executed = await agent.post(`/macros/${macro.id}/execute`, { conversation_ids: [first.id, second.id, unseen.id, 987654] });
  t.deepEqual([executed.status, executed.body], [200, undefined]);
  const result = await onlyRunResult<MacroExecutionResult>(h.deps.temporal.client, "macroExecutionWorkflow", account.id);
  t.true(result.ran);
  t.is(result.conversations.length, 2);
  t.true(result.conversations.every((c) => c.status === "done" && c.actions!.map((a) => a.status).join() === "done,done,done,done"));

  for (const displayId of [first.id, second.id]) {
    const conversation = await expectOk(agent.get(`/conversations/${displayId}`), "show");
    t.like(conversation, { status: "pending", labels: ["vip"] });
    t.is(conversation.meta.assignee.id, account.agent.id);
    const note = await h
      .knex("messages")
      .where({ account_id: account.id, content: "Checked by macro" })
      .whereIn("conversation_id", h.knex("conversations").select("id").where({ account_id: account.id, display_id: displayId }));
    t.is(note.length, 1);
    t.like(note[0], { private: true, message_type: 1, sender_type: "User", sender_id: account.agent.id });
    t.deepEqual(await activityTexts(h, world, displayId), [
      "Agent Person added vip",
      "Agent Person self-assigned this conversation",
      "Conversation was marked as pending by Agent Person",
    ]);
  }
  const untouched = await expectOk(accountApi(h, account).get(`/conversations/${unseen.id}`), "unseen show");
  t.deepEqual(untouched.labels, []);
});

test("execute refuses a malformed or oversized list; an empty list starts nothing", async (t) => {
  const { account } = await conversationWorld(h);
  const api = accountApi(h, account);
  const macro = (await expectOk(api.post("/macros", { name: "M", actions: [] }), "macro")).payload;
  t.is((await api.post(`/macros/${macro.id}/execute`, { conversation_ids: "abc" })).status, 422);
  t.is((await api.post(`/macros/${macro.id}/execute`, { conversation_ids: Array.from({ length: 1001 }, (_, i) => i + 1) })).status, 422);
  t.deepEqual((await api.post(`/macros/${macro.id}/execute`, { conversation_ids: [] })).status, 200);
});
