import { randomUUID } from "node:crypto";
import test from "ava";
import { WorkflowNotFoundError } from "@temporalio/client";
import { runAction } from "../../src/services/automation/actions";
import type { AutomationEventName } from "../../src/services/automation/trigger";
import { automationEventWorkflowId, automationRuleWorkflowId } from "../../src/temporal/contracts";
import type { AutomationRunResult } from "../../workflows/automationRule";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { eventually, workflowExists } from "../support/eventually";
import { expectOk, useHarness } from "../support/harness";
import { Receiver } from "../support/receiver";

const h = useHarness(test, { relay: true });

const api = (account: TestAccount, method: string, path: string, body?: unknown) =>
  expectOk(h.request(method, `/api/v1/accounts/${account.id}${path}`, { token: account.admin.token, body }), `${method} ${path}`);

interface RuleSpec {
  event_name: string;
  conditions: Record<string, unknown>[];
  actions: { action_name: string; action_params?: unknown[] }[];
  active?: boolean;
}
const rule = (account: TestAccount, spec: RuleSpec) => api(account, "POST", "/automation_rules", { name: `rule on ${spec.event_name}`, ...spec });

const condition = (attribute_key: string, filter_operator: string, values: unknown[]) => ({ attribute_key, filter_operator, values, query_operator: null });

async function world() {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  return { account, inbox };
}

async function conversationIn(account: TestAccount, inboxId: number) {
  const { contact } = await createContact(h, account, { inbox_id: inboxId, email: `c-${randomUUID()}@example.com` });
  return api(account, "POST", "/conversations", { inbox_id: inboxId, contact_id: contact.id });
}

const conversationRow = (account: TestAccount, displayId: number) => h.knex("conversations").where({ account_id: account.id, display_id: displayId }).first();
const messagesOf = async (account: TestAccount, displayId: number) => {
  const conversation = await conversationRow(account, displayId);
  return h.knex("messages").where("conversation_id", conversation.id).orderBy("id");
};

/** The id of the newest event of a conversation with that name, once recorded. */
async function eventOf(account: TestAccount, displayId: number, name: string): Promise<EventKey> {
  const conversation = await conversationRow(account, displayId);
  return h.knex("events").where({ conversation_id: conversation.id, name }).orderBy("id", "desc").first("id", "uid");
}

interface EventKey {
  id: number;
  uid: string;
}

const ruleRunId = (event: EventKey, ruleId: number) => automationRuleWorkflowId(h.deps.temporal.installationId, event.uid, ruleId);

/** Runs one action of a rule directly, as its activity would (step: the action's position in the rule). */
async function actionRunner(account: TestAccount, displayId: number, ruleId: number, event: EventKey, eventName: AutomationEventName) {
  const row = await conversationRow(account, displayId);
  const { installationId } = h.deps.temporal;
  const input = {
    accountId: account.id,
    ruleId,
    installationId,
    eventId: event.id,
    eventUid: event.uid,
    eventName,
    conversationId: row.id,
    displayId,
    messageId: null,
    changedAttributes: {},
  };
  return (action_name: string, action_params: unknown[] = [], step = 0) =>
    runAction(h.knex, { timeoutMs: 1000, allowPrivateNetworks: true }, input, { action_name, action_params }, step);
}

/** The run of a rule on an event, once its workflow is started and finished. */
async function runOf(event: EventKey, ruleId: number): Promise<AutomationRunResult> {
  const handle = h.deps.temporal.client.workflow.getHandle(ruleRunId(event, ruleId));
  await workflowExists(handle, `workflow ${handle.workflowId}`);
  return handle.result();
}

test("a message_created rule with a content condition adds a label and sends a message", async (t) => {
  const { account, inbox } = await world();
  const created = await rule(account, {
    event_name: "message_created",
    conditions: [condition("content", "contains", ["refund"])],
    actions: [
      { action_name: "add_label", action_params: ["refund"] },
      { action_name: "send_message", action_params: ["We are on it"] },
    ],
  });
  const conversation = await conversationIn(account, inbox.id);
  await api(account, "POST", `/conversations/${conversation.id}/messages`, { content: "I want a REFUND", message_type: "incoming" });

  const event = await eventOf(account, conversation.id, "message_created");
  const run = await runOf(event, created.id);
  t.deepEqual(run, {
    matched: true,
    actions: [
      { action: "add_label", status: "done" },
      { action: "send_message", status: "done" },
    ],
  });
  t.deepEqual((await conversationRow(account, conversation.id)).labels, ["refund"]);
  const sent = (await messagesOf(account, conversation.id)).filter((m) => m.content === "We are on it");
  t.is(sent.length, 1);
  t.like(sent[0], { message_type: 1, private: false, sender_id: null, content_attributes: { automation_rule_id: created.id } });
  const activity = (await messagesOf(account, conversation.id)).find((m) => m.message_type === 2 && /added refund/.test(m.content));
  t.is(activity?.content, "Automation System added refund");

  // Temporal retries an activity whose worker died after its commit: that retry must not post again.
  const act = await actionRunner(account, conversation.id, created.id, event, "message_created");
  const retried = await act("send_message", ["We are on it"], 1);
  t.deepEqual(retried, { status: "done", detail: "posted by an earlier attempt" });
  t.is((await messagesOf(account, conversation.id)).filter((m) => m.content === "We are on it").length, 1);
});

test("an automation-sent message does not trigger message_created rules again (no loop)", async (t) => {
  const { account, inbox } = await world();
  // Its own message matches its condition: without loop protection it would answer itself until the flood guard.
  const created = await rule(account, {
    event_name: "message_created",
    conditions: [condition("content", "contains", ["ping"])],
    actions: [{ action_name: "send_message", action_params: ["ping back"] }],
  });
  const conversation = await conversationIn(account, inbox.id);
  await api(account, "POST", `/conversations/${conversation.id}/messages`, { content: "ping", message_type: "incoming" });
  await runOf(await eventOf(account, conversation.id, "message_created"), created.id);

  const automationEvent = await eventually(
    async () => {
      const conversationId = (await conversationRow(account, conversation.id)).id;
      return h.knex("events").where({ conversation_id: conversationId, name: "message_created" }).whereNotNull("performed_by_rule_id").first();
    },
    (row) => Boolean(row?.dispatched_at),
    "the automation message's event to be dispatched",
  );
  t.is(Number(automationEvent.performed_by_rule_id), created.id);
  await t.throwsAsync(h.deps.temporal.client.workflow.getHandle(ruleRunId(automationEvent, created.id)).describe(), {
    instanceOf: WorkflowNotFoundError,
  });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  t.is((await messagesOf(account, conversation.id)).filter((m) => m.content === "ping back").length, 1);
});

test("a conversation_created rule assigns an inbox member; status actions speak as Automation System", async (t) => {
  const { account, inbox } = await world();
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const created = await rule(account, {
    event_name: "conversation_created",
    conditions: [condition("status", "equal_to", ["open"])],
    actions: [
      { action_name: "assign_agent", action_params: [account.agent.id] },
      { action_name: "change_priority", action_params: ["high"] },
      { action_name: "resolve_conversation" },
    ],
  });
  const conversation = await conversationIn(account, inbox.id);
  const run = await runOf(await eventOf(account, conversation.id, "conversation_created"), created.id);
  t.true(run.matched);
  t.like(await conversationRow(account, conversation.id), { assignee_id: account.agent.id, priority: "high", status: "resolved" });
  const activities = (await messagesOf(account, conversation.id)).filter((m) => m.message_type === 2).map((m) => m.content);
  t.true(activities.includes("Assigned to Agent Person by Automation System"));
  t.true(activities.includes("Conversation was marked resolved by Automation System"));
});

test("a rule whose conditions do not match does nothing", async (t) => {
  const { account, inbox } = await world();
  const created = await rule(account, {
    event_name: "message_created",
    conditions: [condition("content", "contains", ["refund"])],
    actions: [{ action_name: "add_label", action_params: ["refund"] }],
  });
  const conversation = await conversationIn(account, inbox.id);
  await api(account, "POST", `/conversations/${conversation.id}/messages`, { content: "just saying hello", message_type: "incoming" });
  const run = await runOf(await eventOf(account, conversation.id, "message_created"), created.id);
  t.deepEqual(run, { matched: false, reason: "conditions do not match" });
  t.deepEqual((await conversationRow(account, conversation.id)).labels, []);
});

test("a failing action is recorded and the next one still runs; unsupported ones are skipped", async (t) => {
  const { account, inbox } = await world();
  const created = await rule(account, {
    event_name: "conversation_created",
    conditions: [condition("status", "equal_to", ["open"])],
    actions: [
      { action_name: "change_priority", action_params: ["not-a-priority"] },
      { action_name: "send_attachment", action_params: [1] },
      { action_name: "add_label", action_params: ["after-failure"] },
    ],
  });
  const conversation = await conversationIn(account, inbox.id);
  const run = await runOf(await eventOf(account, conversation.id, "conversation_created"), created.id);
  t.true(run.matched);
  const actions = run.matched ? run.actions : [];
  t.deepEqual(
    actions.map((a) => [a.action, a.status]),
    [
      ["change_priority", "failed"],
      ["send_attachment", "skipped"],
      ["add_label", "done"],
    ],
  );
  t.regex(actions[0]!.detail!, /unknown priority/);
  t.deepEqual((await conversationRow(account, conversation.id)).labels, ["after-failure"]);
});

test("inactive rules and other accounts' rules do nothing", async (t) => {
  const { account, inbox } = await world();
  const other = await createAccount(h);
  const inactive = await rule(account, {
    event_name: "conversation_created",
    active: false,
    conditions: [condition("status", "equal_to", ["open"])],
    actions: [{ action_name: "add_label", action_params: ["inactive"] }],
  });
  const foreign = await rule(other, {
    event_name: "conversation_created",
    conditions: [condition("status", "equal_to", ["open"])],
    actions: [{ action_name: "add_label", action_params: ["foreign"] }],
  });
  const conversation = await conversationIn(account, inbox.id);
  const event = await eventOf(account, conversation.id, "conversation_created");
  await eventually(
    () => h.knex("events").where("id", event.id).first(),
    (row) => Boolean(row.dispatched_at),
    "dispatch",
  );
  for (const ruleId of [inactive.id, foreign.id]) {
    await t.throwsAsync(h.deps.temporal.client.workflow.getHandle(ruleRunId(event, ruleId)).describe(), { instanceOf: WorkflowNotFoundError });
  }
  t.deepEqual((await conversationRow(account, conversation.id)).labels, []);
});

test("conversation_resolved rules run on a status change, and send_webhook_event posts the conversation unsigned", async (t) => {
  const { account, inbox } = await world();
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const created = await rule(account, {
    event_name: "conversation_resolved",
    conditions: [condition("status", "equal_to", ["resolved"])],
    actions: [
      { action_name: "send_webhook_event", action_params: [receiver.url] },
      { action_name: "add_private_note", action_params: ["Closed, see CRM"] },
    ],
  });
  const conversation = await conversationIn(account, inbox.id);
  await api(account, "POST", `/conversations/${conversation.id}/toggle_status`, { status: "resolved" });
  const run = await runOf(await eventOf(account, conversation.id, "conversation_status_changed"), created.id);
  t.deepEqual(run, {
    matched: true,
    actions: [
      { action: "send_webhook_event", status: "done" },
      { action: "add_private_note", status: "done" },
    ],
  });

  t.is(receiver.requests.length, 1);
  const [request] = receiver.requests;
  t.like(request!.body, { event: "automation_event.conversation_resolved", id: conversation.id, status: "resolved" });
  t.is(request!.headers["x-chatwoot-signature"], undefined);
  const note = (await messagesOf(account, conversation.id)).find((m) => m.content === "Closed, see CRM");
  t.like(note, { private: true, content_attributes: { automation_rule_id: created.id } });
});

test("the same send_message run concurrently (a retry racing a slow first attempt) posts once", async (t) => {
  const { account, inbox } = await world();
  const created = await rule(account, {
    event_name: "conversation_updated",
    conditions: [condition("status", "equal_to", ["open"])],
    actions: [{ action_name: "send_message", action_params: ["Once only"] }],
    active: false,
  });
  const conversation = await conversationIn(account, inbox.id);
  const act = await actionRunner(account, conversation.id, created.id, { id: 0, uid: randomUUID() }, "conversation_updated");

  const outcomes = await Promise.all(Array.from({ length: 8 }, () => act("send_message", ["Once only"], 0)));
  t.is((await messagesOf(account, conversation.id)).filter((m) => m.content === "Once only").length, 1);
  t.is(outcomes.filter((o) => o.status === "done" && o.detail === undefined).length, 1);
  t.is(outcomes.filter((o) => o.detail === "posted by an earlier attempt").length, 7);
  // Another step of the same run is another action: it posts.
  await act("send_message", ["Once only"], 1);
  t.is((await messagesOf(account, conversation.id)).filter((m) => m.content === "Once only").length, 2);
});

test("status actions move the conversation as Chatwoot's ActionService does; an unknown status is refused for good", async (t) => {
  const { account, inbox } = await world();
  // Inactive: the actions are driven directly here, not by events.
  const created = await rule(account, {
    event_name: "conversation_updated",
    conditions: [condition("status", "equal_to", ["open"])],
    actions: [{ action_name: "mute_conversation" }],
    active: false,
  });
  const conversation = await conversationIn(account, inbox.id);
  const act = await actionRunner(account, conversation.id, created.id, { id: 0, uid: randomUUID() }, "conversation_updated");

  for (const [action, params, status] of [
    ["pending_conversation", [], "pending"],
    ["open_conversation", [], "open"],
    ["snooze_conversation", [], "snoozed"],
    ["change_status", ["resolved"], "resolved"],
    ["change_status", ["open"], "open"],
  ] as const) {
    t.deepEqual(await act(action, [...params]), { status: "done" }, action);
    t.is((await conversationRow(account, conversation.id)).status, status, action);
  }
  await act("mute_conversation");
  t.like(await conversationRow(account, conversation.id), { status: "resolved", muted: true });
  const activities = (await messagesOf(account, conversation.id)).filter((m) => m.message_type === 2).map((m) => m.content);
  t.true(activities.includes("Automation System has muted the conversation"));

  const refused = await t.throwsAsync(act("change_status", ["bogus"]));
  t.like(refused, { message: "unknown status bogus", nonRetryable: true });
});

test("an event's rules run one after another, oldest first: a rule sees what the rule before it changed", async (t) => {
  const { account, inbox } = await world();
  const tagger = await rule(account, {
    event_name: "message_created",
    conditions: [condition("message_type", "equal_to", ["incoming"])],
    actions: [{ action_name: "add_label", action_params: ["vip"] }],
  });
  const greeter = await rule(account, {
    event_name: "message_created",
    conditions: [condition("labels", "equal_to", ["vip"])],
    actions: [{ action_name: "add_private_note", action_params: ["VIP on the line"] }],
  });
  const conversation = await conversationIn(account, inbox.id);
  await api(account, "POST", `/conversations/${conversation.id}/messages`, { content: "Hello", message_type: "incoming" });

  const event = await eventOf(account, conversation.id, "message_created");
  const handle = h.deps.temporal.client.workflow.getHandle(automationEventWorkflowId(h.deps.temporal.installationId, event.uid));
  await workflowExists(handle, `workflow ${handle.workflowId}`);
  t.deepEqual(await handle.result(), {
    [tagger.id]: { matched: true, actions: [{ action: "add_label", status: "done" }] },
    [greeter.id]: { matched: true, actions: [{ action: "add_private_note", status: "done" }] },
  });
  t.is((await messagesOf(account, conversation.id)).filter((m) => m.content === "VIP on the line").length, 1);
  t.deepEqual(await runOf(event, greeter.id), { matched: true, actions: [{ action: "add_private_note", status: "done" }] });
});
