import type { WorkflowExecutionDescription } from "@temporalio/client";
import type { AppDeps } from "../../src/deps";
import { planTimers } from "../../src/conversations/timers";
import { accountTimersWorkflowId, timerSweepWorkflowId } from "../../src/temporal/contracts";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { eventually } from "../support/eventually";
import type { Harness } from "../support/harness";

export interface TimedConversation {
  account: TestAccount;
  conversation: { id: number; dbId: number; uuid: string };
}

/** An account with the given auto-resolve settings and one open conversation with a contact. */
export async function openConversation(h: Harness, settings: Record<string, unknown>): Promise<TimedConversation> {
  const account = await createAccount(h);
  const patched = await h.request("PATCH", `/api/v1/accounts/${account.id}`, { token: account.admin.token, body: settings });
  if (patched.status !== 200) throw new Error(JSON.stringify(patched.body));
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  const created = await h.request("POST", `/api/v1/accounts/${account.id}/conversations`, {
    token: account.admin.token,
    body: { inbox_id: inbox.id, contact_id: contact.id, status: "open" },
  });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const row = await h.knex("conversations").where({ account_id: account.id, display_id: created.body.id }).first("id", "uuid");
  return { account, conversation: { id: created.body.id, dbId: row.id, uuid: row.uuid } };
}

/** The installation's timer sweep, as the Temporal UI lists it. */
export function sweepHandle(deps: AppDeps) {
  return deps.temporal.client.workflow.getHandle(timerSweepWorkflowId(deps.temporal.installationId));
}

/** What the Temporal UI shows of a workflow's state (its current details). */
export async function currentDetails(deps: AppDeps): Promise<string> {
  const metadata = await sweepHandle(deps).query<{ currentDetails?: string }>("__temporal_workflow_metadata");
  return metadata.currentDetails ?? "";
}

/**
 * Waits until the sweep sleeps towards its next wake-up with no task or activity in flight, so what
 * the test does next (stopping a server or a worker) cannot catch it halfway through a sweep.
 */
export async function sweepSleeping(deps: AppDeps): Promise<WorkflowExecutionDescription> {
  return eventually(
    async () => ({ description: await sweepHandle(deps).describe(), details: await currentDetails(deps) }),
    ({ description: d, details }) => details.startsWith("Next sweep at") && !d.raw.pendingWorkflowTask && !d.raw.pendingActivities?.length,
    "the sweep to sleep with nothing in flight",
    15_000,
  ).then(({ description }) => description);
}

/** The conversation's planned deadline (Unix milliseconds), null when none waits. */
export async function dueAt(h: Harness, s: TimedConversation): Promise<number | null> {
  const row = await h.knex("conversations").where("id", s.conversation.dbId).first("timer_due_at");
  return row.timer_due_at ? row.timer_due_at.getTime() : null;
}

/**
 * Moves the conversation's last activity so that its deadline falls `inMs` from now, without an
 * event (so no relay touches the timer); answers the deadline in Unix milliseconds.
 */
export async function moveDeadline(h: Harness, s: TimedConversation, inMs: number, minutes = 10): Promise<number> {
  const deadline = Date.now() + inMs;
  await h
    .knex("conversations")
    .where("id", s.conversation.dbId)
    .update({ last_activity_at: new Date(deadline - minutes * 60_000) });
  return deadline;
}

/** moveDeadline, then plans the conversation's timer as the relay would. */
export async function deadlineIn(h: Harness, s: TimedConversation, inMs: number, minutes = 10, deps: AppDeps = h.deps): Promise<number> {
  const deadline = await moveDeadline(h, s, inMs, minutes);
  await planTimers(deps, [s.conversation.dbId]);
  return deadline;
}

export async function show(h: Harness, { account, conversation }: TimedConversation) {
  return (await h.request("GET", `/api/v1/accounts/${account.id}/conversations/${conversation.id}`, { token: account.admin.token })).body;
}

export async function contents(h: Harness, { conversation }: TimedConversation): Promise<{ content: string; message_type: number; created_at: Date }[]> {
  return h.knex("messages").where("conversation_id", conversation.dbId).orderBy("id").select("content", "message_type", "created_at");
}

/**
 * Waits until nothing the setup set off can still touch the timer: every event of the account has
 * gone through a relay, and every settings re-plan those events started has finished.
 */
export async function setupSettled(h: Harness, { account }: TimedConversation): Promise<void> {
  await eventually(
    () => h.knex("events").where("account_id", account.id).whereNull("dispatched_at").first("id"),
    (row) => !row,
    `every event of account ${account.id} to be dispatched`,
    15_000,
  );
  const settingsEvents: string[] = await h.knex("events").where({ account_id: account.id, name: "account_auto_resolve_changed" }).pluck("uid");
  for (const uid of settingsEvents) {
    await h.deps.temporal.client.workflow.getHandle(accountTimersWorkflowId(h.deps.temporal.installationId, account.id, uid)).result();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
