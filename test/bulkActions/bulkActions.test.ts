import test from "ava";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { activityTexts, conversationWorld, createConversation, eventsOf } from "../conversations/setup";
import { onlyRunResult, runsOf } from "../support/workflowRuns";
import type { BulkActionResult } from "../../workflows/bulkAction";

const h = useHarness(test, { worker: true });

const result = (accountId: number) => onlyRunResult<BulkActionResult>(h.deps.temporal.client, "bulkActionWorkflow", accountId);

test("conversations: labels, status, assignee and team change on each visible conversation, as the caller, with events per item", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const admin = accountApi(h, account);
  const agent = accountApi(h, account, account.agent.token);
  const team = await expectOk(admin.post("/teams", { name: "Billing" }), "team");
  await expectOk(admin.post(`/teams/${team.id}/team_members`, { user_ids: [account.agent.id] }), "team member");
  const first = await createConversation(h, world, { labels: undefined });
  const second = await createConversation(h, world);
  await expectOk(admin.post(`/conversations/${first.id}/labels`, { labels: ["old", "keep"] }), "labels");
  const hidden = await createInbox(h, account, { name: "Hidden" });
  await setInboxMembers(h, account, hidden.id, [account.admin.id]);
  const unseen = await expectOk(admin.post("/conversations", { inbox_id: hidden.id, contact_id: world.contact.id }), "unseen");

  const response = await agent.post("/bulk_actions", {
    type: "Conversation",
    ids: [first.id, second.id, unseen.id],
    fields: { status: "resolved", assignee_id: account.agent.id, team_id: team.id },
    labels: { add: ["bulk"], remove: ["old"] },
  });
  t.deepEqual([response.status, response.body], [200, undefined]);
  const run = await result(account.id);
  t.is(run.type, "Conversation");
  t.deepEqual(
    run.items.map((item) => item.status),
    ["done", "done"],
  );

  const shown = await expectOk(admin.get(`/conversations/${first.id}`), "first");
  t.like(shown, { status: "resolved", labels: ["keep", "bulk"] });
  t.is(shown.meta.assignee.id, account.agent.id);
  t.is(shown.meta.team?.id, team.id, JSON.stringify(shown.meta));
  t.deepEqual((await expectOk(admin.get(`/conversations/${unseen.id}`), "unseen")).status, "open", "an unseen conversation is left alone");
  const texts = await activityTexts(h, world, second.id);
  t.true(texts.includes("Agent Person added bulk"));
  t.true(texts.includes("Conversation was marked resolved by Agent Person"));
  t.true(texts.includes("Agent Person self-assigned this conversation"));
  for (const displayId of [first.id, second.id]) {
    const names = (await eventsOf(h, world, displayId)).map((e: { name: string }) => e.name);
    t.true(names.includes("conversation_status_changed") && names.includes("conversation_updated"), `events of #${displayId}`);
  }
});

test("conversations: a null assignee and team clear them, a null status is left alone; a bad assignee fails only its items", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const admin = accountApi(h, account);
  const conversation = await createConversation(h, world, { assignee_id: account.agent.id });
  await expectOk(
    admin.post("/bulk_actions", { type: "Conversation", ids: [conversation.id], fields: { status: null, assignee_id: null, team_id: null } }),
    "clear",
  );
  await result(account.id);
  const shown = await expectOk(admin.get(`/conversations/${conversation.id}`), "show");
  t.is(shown.status, "open");
  t.is(shown.meta.assignee, undefined);

  const other = await conversationWorld(h, "Other");
  const stranger = await createConversation(h, other);
  await expectOk(
    accountApi(h, other.account).post("/bulk_actions", { type: "Conversation", ids: [stranger.id], fields: { assignee_id: account.agent.id } }),
    "bad assignee",
  );
  const run = await result(other.account.id);
  t.like(run.items[0], { status: "failed" });
});

test("snoozed with snoozed_until; other types answer {success: false}; malformed input is 422", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const admin = accountApi(h, account);
  const conversation = await createConversation(h, world);
  const until = new Date(Date.now() + 3_600_000);
  await expectOk(
    admin.post("/bulk_actions", {
      type: "Conversation",
      ids: [conversation.id],
      fields: { status: "snoozed" },
      snoozed_until: Math.floor(until.getTime() / 1000),
    }),
    "snooze",
  );
  await result(account.id);
  const row = await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first();
  t.is(row.status, "snoozed");
  t.is(Math.floor(row.snoozed_until.getTime() / 1000), Math.floor(until.getTime() / 1000));

  const other = await admin.post("/bulk_actions", { type: "Message", ids: [1] });
  t.deepEqual([other.status, other.body], [422, { success: false }]);
  t.is((await admin.post("/bulk_actions", { type: "Conversation", ids: "x,y" })).status, 422);
  t.is((await admin.post("/bulk_actions", { type: "Conversation", ids: [1], fields: { status: "gone" } })).status, 422);
  t.is((await admin.post("/bulk_actions", { type: "Conversation", ids: Array.from({ length: 1001 }, (_, i) => i + 1) })).status, 422);
});

test("contacts: labels are added (contact_updated per contact); delete needs an administrator", async (t) => {
  const world = await conversationWorld(h);
  const { account } = world;
  const admin = accountApi(h, account);
  const agent = accountApi(h, account, account.agent.token);
  const { contact: a } = await createContact(h, account, { name: "A", email: "a@example.com" });
  const { contact: b } = await createContact(h, account, { name: "B", email: "b@example.com" });
  const { contact: elsewhere } = await createContact(h, (await conversationWorld(h, "Elsewhere")).account, { name: "C" });

  await expectOk(agent.post("/bulk_actions", { type: "Contact", ids: [a.id, b.id, elsewhere.id], labels: { add: ["lead"] } }), "labels");
  const run = await result(account.id);
  t.deepEqual(
    run.items.map((item) => [item.id, item.status]),
    [
      [a.id, "done"],
      [b.id, "done"],
    ],
  );
  t.deepEqual((await h.knex("contacts").where({ id: a.id }).first()).labels, ["lead"]);
  t.deepEqual((await h.knex("contacts").where({ id: elsewhere.id }).first()).labels, [], "another account's contact is left alone");
  const updates = await h.knex("events").where({ account_id: account.id, name: "contact_updated" });
  t.deepEqual(updates.map((e: { payload: { id: number } }) => e.payload.id).sort(), [a.id, b.id].sort());

  t.is((await agent.post("/bulk_actions", { type: "Contact", ids: [a.id], action_name: "delete" })).status, 401);
  const conversation = await createConversation(h, { ...world, contact: a });
  await expectOk(admin.post("/bulk_actions", { type: "Contact", ids: [a.id], action_name: "delete" }), "delete");
  await onlyRunResultCount(account.id, 2);
  t.is(await h.knex("contacts").where({ id: a.id }).first(), undefined);
  t.is(await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first(), undefined);
  t.truthy(await h.knex("contacts").where({ id: b.id }).first());
});

/** Waits for the account's `count` bulk runs to finish. */
async function onlyRunResultCount(accountId: number, count: number) {
  const ids = await runsOf(h.deps.temporal.client, "bulkActionWorkflow", accountId, count);
  await Promise.all(ids.map((id) => h.deps.temporal.client.workflow.getHandle(id).result()));
}
