import { randomUUID } from "node:crypto";
import test from "ava";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { eventually, workflowExists } from "../support/eventually";
import { expectOk, useHarness } from "../support/harness";
import { Receiver } from "../support/receiver";
import { runAction } from "../../src/services/automation/actions";
import { automationRuleWorkflowId } from "../../src/temporal/contracts";

const h = useHarness(test, { relay: true });

const api = (account: TestAccount, method: string, path: string, body?: unknown, token = account.admin.token) =>
  h.request(method, `/api/v1/accounts/${account.id}${path}`, { token, body });
const okApi = (account: TestAccount, method: string, path: string, body?: unknown, token?: string) =>
  expectOk(api(account, method, path, body, token), `${method} ${path}`);

async function world() {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const team = await okApi(account, "POST", "/teams", { name: "Support" });
  return { account, inbox, team };
}

async function conversationIn(account: TestAccount, inboxId: number, extra: Record<string, unknown> = {}) {
  const { contact } = await createContact(h, account, { inbox_id: inboxId, email: `c-${randomUUID()}@example.com` });
  return okApi(account, "POST", "/conversations", { inbox_id: inboxId, contact_id: contact.id, ...extra });
}

const row = (account: TestAccount, displayId: number) => h.knex("conversations").where({ account_id: account.id, display_id: displayId }).first();
const activities = async (account: TestAccount, displayId: number) => {
  const conversation = await row(account, displayId);
  return (await h.knex("messages").where({ conversation_id: conversation.id, message_type: 2 }).orderBy("id")).map((m) => m.content);
};
const changedTeams = async (account: TestAccount, displayId: number) => {
  const conversation = await row(account, displayId);
  const events = await h.knex("events").where({ conversation_id: conversation.id, name: "conversation_updated" }).orderBy("id");
  return events
    .map(
      (event) =>
        (event.payload.changed_attributes as Record<string, { previous_value: unknown; current_value: unknown }>[]).find((c) => "team_id" in c)?.team_id,
    )
    .filter(Boolean);
};

test("a conversation created with a team shows it in meta.team and the list filters on it", async (t) => {
  const { account, inbox, team } = await world();
  const withTeam = await conversationIn(account, inbox.id, { team_id: team.id });
  t.deepEqual(withTeam.meta.team, { id: team.id, name: "support", description: null, allow_auto_assign: true, account_id: account.id, is_member: false });
  t.deepEqual(Object.keys(withTeam.meta), ["sender", "channel", "team", "hmac_verified"]);
  const without = await conversationIn(account, inbox.id);
  t.false("team" in without.meta);

  // is_member is about the caller.
  await okApi(account, "POST", `/teams/${team.id}/team_members`, { user_ids: [account.agent.id] });
  const seenByAgent = await okApi(account, "GET", `/conversations/${withTeam.id}`, undefined, account.agent.token);
  t.true(seenByAgent.meta.team.is_member);

  const filtered = await okApi(account, "GET", `/conversations?team_id=${team.id}`);
  t.deepEqual(
    filtered.data.payload.map((c: { id: number }) => c.id),
    [withTeam.id],
  );
  t.like(filtered.data.meta, { all_count: 1, unassigned_count: 1 });
  t.deepEqual((await okApi(account, "GET", `/conversations/meta?team_id=${team.id}`)).meta, {
    mine_count: 0,
    assigned_count: 0,
    unassigned_count: 1,
    all_count: 1,
  });
  t.is((await okApi(account, "GET", "/conversations")).data.payload.length, 2);

  const other = await createAccount(h);
  const foreign = await okApi(other, "POST", "/teams", { name: "Elsewhere" });
  t.deepEqual(await api(account, "GET", `/conversations?team_id=${foreign.id}`).then((r) => [r.status, r.body]), [
    404,
    { error: "Resource could not be found" },
  ]);
  const refused = await createContact(h, account, { inbox_id: inbox.id, email: `c-${randomUUID()}@example.com` });
  const bad = await api(account, "POST", "/conversations", { inbox_id: inbox.id, contact_id: refused.contact.id, team_id: foreign.id });
  t.deepEqual([bad.status, bad.body], [422, { message: "Team must exist", attributes: ["team"] }]);
});

test("assignments set and remove the team, answer the team record, and clear an assignee outside it", async (t) => {
  const { account, inbox, team } = await world();
  const conversation = await conversationIn(account, inbox.id, { assignee_id: account.agent.id });
  const path = `/conversations/${conversation.id}/assignments`;

  const assigned = await api(account, "POST", path, { team_id: team.id });
  t.is(assigned.status, 200);
  t.deepEqual(Object.keys(assigned.body), ["id", "name", "description", "allow_auto_assign", "account_id", "created_at", "updated_at"]);
  t.like(assigned.body, { id: team.id, name: "support", account_id: account.id });
  // The agent is not a member of the team, so the conversation is no longer theirs.
  t.like(await row(account, conversation.id), { team_id: team.id, assignee_id: null });

  // A member assigned with the team keeps the conversation.
  await okApi(account, "POST", `/teams/${team.id}/team_members`, { user_ids: [account.agent.id] });
  const second = await okApi(account, "POST", "/teams", { name: "Billing" });
  await okApi(account, "POST", `/teams/${second.id}/team_members`, { user_ids: [account.agent.id] });
  await okApi(account, "POST", path, { assignee_id: account.agent.id });
  await okApi(account, "POST", path, { team_id: second.id });
  t.like(await row(account, conversation.id), { team_id: second.id, assignee_id: account.agent.id });

  const removed = await api(account, "POST", path, { team_id: null });
  t.deepEqual([removed.status, removed.body], [200, null]);
  t.like(await row(account, conversation.id), { team_id: null, assignee_id: account.agent.id });
  // An unknown team removes the team too (find_by), so setting one first.
  await okApi(account, "POST", path, { team_id: team.id });
  const unknown = await api(account, "POST", path, { team_id: 999999999 });
  t.deepEqual([unknown.status, unknown.body], [200, null]);
  t.is((await row(account, conversation.id)).team_id, null);

  // Agents in the inbox may assign teams, as Chatwoot lets them.
  const byAgent = await api(account, "POST", path, { team_id: team.id }, account.agent.token);
  t.is(byAgent.status, 200);

  t.deepEqual(await activities(account, conversation.id), [
    "Assigned to support by Admin Person",
    "Assigned to Agent Person by Admin Person",
    "Assigned to billing by Admin Person",
    "Unassigned from billing by Admin Person",
    "Assigned to support by Admin Person",
    "Unassigned from support by Admin Person",
    "Assigned to support by Agent Person",
  ]);
  t.deepEqual((await changedTeams(account, conversation.id)).slice(0, 2), [
    { previous_value: null, current_value: team.id },
    { previous_value: team.id, current_value: second.id },
  ]);
});

test("conversation_updated webhooks carry the team change and meta.team", async (t) => {
  const { account, inbox, team } = await world();
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  await okApi(account, "POST", "/webhooks", { url: receiver.url, subscriptions: ["conversation_updated", "conversation_created"] });
  const conversation = await conversationIn(account, inbox.id, { team_id: team.id });
  await okApi(account, "POST", `/conversations/${conversation.id}/assignments`, { team_id: null });

  const updates = () => receiver.requests.filter((r) => r.body.event === "conversation_updated").map((r) => r.body);
  await receiver.waitFor(() => updates().length >= 1 && receiver.requests.some((r) => r.body.event === "conversation_created"));
  const created = receiver.requests.find((r) => r.body.event === "conversation_created")!.body;
  t.deepEqual(created.meta.team, { id: team.id, name: "support" });
  const [update] = updates();
  t.is(update.meta.team, null);
  t.deepEqual(
    update.changed_attributes.find((c: Record<string, unknown>) => "team_id" in c),
    { team_id: { previous_value: team.id, current_value: null } },
  );
});

test("deleting a team takes it off its conversations without events", async (t) => {
  const { account, inbox, team } = await world();
  const conversation = await conversationIn(account, inbox.id, { team_id: team.id });
  const eventsBefore = await h.knex("events").where("account_id", account.id).count("* as n");
  t.is((await api(account, "DELETE", `/teams/${team.id}`)).status, 200);
  t.is((await row(account, conversation.id)).team_id, null);
  t.false("team" in (await okApi(account, "GET", `/conversations/${conversation.id}`)).meta);
  t.deepEqual(await h.knex("events").where("account_id", account.id).count("* as n"), eventsBefore);
});

async function runActionOn(
  account: TestAccount,
  displayId: number,
  ruleId: number,
  event: { id: number; uid: string },
  action_name: string,
  action_params: unknown[],
) {
  const conversation = await row(account, displayId);
  const { installationId } = h.deps.temporal;
  const input = {
    accountId: account.id,
    ruleId,
    installationId,
    eventId: event.id,
    eventUid: event.uid,
    eventName: "conversation_created" as const,
    conversationId: conversation.id,
    displayId,
    messageId: null,
    changedAttributes: {},
  };
  return runAction(h.knex, { timeoutMs: 1000, allowPrivateNetworks: true }, input, { action_name, action_params }, 0);
}

interface RuleSpec {
  event_name: string;
  conditions: Record<string, unknown>[];
  actions: { action_name: string; action_params?: unknown[] }[];
}
const condition = (attribute_key: string, filter_operator: string, values: unknown[] = []) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator: null,
});

test("automation rules assign and remove teams and match on team_id", async (t) => {
  const { account, inbox, team } = await world();
  const other = await okApi(account, "POST", "/teams", { name: "Escalations" });
  const rule = (spec: RuleSpec) => okApi(account, "POST", "/automation_rules", { name: `rule on ${spec.event_name}`, ...spec });
  // New conversations without a team go to Support.
  const onCreate = await rule({
    event_name: "conversation_created",
    conditions: [condition("team_id", "is_not_present")],
    actions: [{ action_name: "assign_team", action_params: [team.id] }],
  });
  // A conversation moved to Escalations loses its team again; one moved elsewhere is left alone.
  await rule({
    event_name: "conversation_updated",
    conditions: [condition("team_id", "equal_to", [other.id])],
    actions: [{ action_name: "remove_assigned_team" }],
  });

  const conversation = await conversationIn(account, inbox.id);
  await eventually(
    () => row(account, conversation.id),
    (c) => c.team_id === team.id,
    "the rule assigns Support",
  );
  t.deepEqual(await activities(account, conversation.id), ["Assigned to support by Automation System"]);

  // Created with a team already: the condition does not match.
  const withTeam = await conversationIn(account, inbox.id, { team_id: other.id });
  const createdEvent = await h
    .knex("events")
    .where({ conversation_id: (await row(account, withTeam.id)).id, name: "conversation_created" })
    .first();
  const handle = h.deps.temporal.client.workflow.getHandle(automationRuleWorkflowId(h.deps.temporal.installationId, createdEvent.uid, onCreate.id));
  await workflowExists(handle, "the rule's run on the second conversation");
  t.deepEqual(await handle.result(), { matched: false, reason: "conditions do not match" });
  t.is((await row(account, withTeam.id)).team_id, other.id);

  // assign_team with "nil" removes the team; an unknown team is skipped.
  const assignNil = await runActionOn(account, withTeam.id, onCreate.id, createdEvent, "assign_team", ["nil"]);
  t.deepEqual(assignNil, { status: "done" });
  t.is((await row(account, withTeam.id)).team_id, null);
  const unknown = await runActionOn(account, withTeam.id, onCreate.id, createdEvent, "assign_team", [999999999]);
  t.is(unknown.status, "skipped");
  t.is((await row(account, withTeam.id)).team_id, null);

  await okApi(account, "POST", `/conversations/${conversation.id}/assignments`, { team_id: other.id });
  await eventually(
    () => row(account, conversation.id),
    (c) => c.team_id === null,
    "the update rule removes the team",
  );
  t.deepEqual((await activities(account, conversation.id)).slice(-2), [
    "Assigned to escalations by Admin Person",
    "Unassigned from escalations by Automation System",
  ]);
});
