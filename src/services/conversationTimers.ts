import { WorkflowIdReusePolicy, WorkflowNotFoundError } from "@temporalio/client";
import type { Knex } from "knex";
import type { AppDeps } from "../deps";
import type { AccountSettings } from "../models/Account";
import type { Conversation } from "../models/Conversation";
import { startOnce } from "../temporal/client";
import { accountTimersWorkflowId, adoptTimersWorkflowId, conversationTimerWorkflowId, TOUCH_SIGNAL } from "../temporal/contracts";
import { AccountIdAttribute, AutoResolveAtAttribute, ConversationIdAttribute } from "../temporal/searchAttributes";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import type { EventConsumer, EventRow } from "./events";

/** What a conversation's timer waits for: resolving an idle open conversation, or reopening a snoozed one. */
export interface TimerPlan {
  kind: "resolve" | "reopen";
  /** Unix milliseconds. */
  at: number;
}

export interface ConversationTimerInput {
  accountId: number;
  conversationId: number;
  /** The row's uuid: a timer acts only on the conversation it was started for, whatever reuses its number. */
  conversationUuid: string;
  displayId: number;
  /**
   * Rounds (plan, then wait) per run before continuing as new; unset means the workflow's default.
   * Part of the input so that tests reach the switch in a few signals and each run carries it on.
   */
  roundsPerRun?: number;
}

type TimerConversation = Pick<Conversation, "status" | "contact_id" | "snoozed_until" | "last_activity_at" | "waiting_since">;

/**
 * The one rule for when a conversation's timer fires (reference/chatwoot.md section 4): open
 * conversations with a contact resolve auto_resolve_after minutes after their last activity, unless
 * the account ignores those waiting for an agent; snoozed ones reopen at snoozed_until; pending and
 * resolved ones have no timer.
 */
export function timerPlan(conversation: TimerConversation, settings: AccountSettings): TimerPlan | null {
  if (conversation.status === "snoozed") {
    return conversation.snoozed_until ? { kind: "reopen", at: conversation.snoozed_until.getTime() } : null;
  }
  if (conversation.status !== "open" || conversation.contact_id === null) return null;
  const minutes = settings.auto_resolve_after;
  if (typeof minutes !== "number" || minutes <= 0) return null;
  if (settings.auto_resolve_ignore_waiting && conversation.waiting_since) return null;
  return { kind: "resolve", at: conversation.last_activity_at.getTime() + minutes * 60_000 };
}

/** Plans the timers of several conversations from their rows and their accounts' settings. */
export async function loadTimerPlans(db: Knex, conversationIds: number[]): Promise<Map<number, TimerPlan | null>> {
  const rows = await db("conversations")
    .join("accounts", "accounts.id", "conversations.account_id")
    .whereIn("conversations.id", conversationIds)
    .whereNull("accounts.deletion_requested_at")
    .select(
      "conversations.id",
      "conversations.status",
      "conversations.contact_id",
      "conversations.snoozed_until",
      "conversations.last_activity_at",
      "conversations.waiting_since",
      "accounts.settings",
    );
  const plans = new Map<number, TimerPlan | null>(conversationIds.map((id) => [id, null]));
  for (const row of rows) plans.set(row.id, timerPlan(row, row.settings ?? {}));
  return plans;
}

/** The plan of the conversation the timer was started for; none if its number now names another one. */
export async function loadTimerPlan(db: Knex, conversationId: number, conversationUuid?: string): Promise<TimerPlan | null> {
  if (conversationUuid && !(await db("conversations").where({ id: conversationId, uuid: conversationUuid }).first("id"))) return null;
  return (await loadTimerPlans(db, [conversationId])).get(conversationId) ?? null;
}

/**
 * Wakes (or starts) the conversation's timer workflow so it plans again from the database. A caller
 * that has just planned passes its plan: a run it starts shows AutoResolveAt from its first moment, and
 * finding the same plan upserts nothing (a running one re-plans and upserts whatever changed).
 */
export async function touchConversationTimer(deps: AppDeps, input: ConversationTimerInput, plan?: TimerPlan): Promise<void> {
  await deps.temporal.client.workflow.signalWithStart("conversationTimerWorkflow", {
    workflowId: conversationTimerWorkflowId(deps.temporal.installationId, input.accountId, input.displayId, input.conversationUuid),
    taskQueue: deps.temporal.taskQueue,
    args: [input],
    signal: TOUCH_SIGNAL,
    signalArgs: [],
    typedSearchAttributes: [
      { key: AccountIdAttribute, value: input.accountId },
      { key: ConversationIdAttribute, value: input.displayId },
      ...(plan ? [{ key: AutoResolveAtAttribute, value: new Date(plan.at) }] : []),
    ],
    staticSummary: `Auto-resolve / snooze timer of conversation #${input.displayId} in account ${input.accountId}`,
  });
}

/**
 * Tells the conversation's timer, if one is running, that the conversation changed; starts none. For
 * a conversation with nothing to wait for: a timer waiting on its old state ends at once, and starting
 * a run only to find nothing due (after every resolve, say) would double the work of each firing.
 */
async function tellRunningTimer(deps: AppDeps, input: ConversationTimerInput): Promise<void> {
  const workflowId = conversationTimerWorkflowId(deps.temporal.installationId, input.accountId, input.displayId, input.conversationUuid);
  try {
    await deps.temporal.client.workflow.getHandle(workflowId).signal(TOUCH_SIGNAL);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

type TimerRow = { id: number; account_id: number; display_id: number; uuid: string };
const TIMER_COLUMNS = ["id", "account_id", "display_id", "uuid"];

export function timerInputOf(conversation: TimerRow): ConversationTimerInput {
  return { accountId: conversation.account_id, conversationId: conversation.id, conversationUuid: conversation.uuid, displayId: conversation.display_id };
}

const CONVERSATION_EVENTS = new Set(["conversation_created", "conversation_updated", "conversation_status_changed", "message_created", "message_updated"]);
/** conversation_updated carries status, snoozed_until and waiting_since changes. */
const STATUS_EVENTS = new Set(["conversation_status_changed", "conversation_updated"]);

/** Touches every conversation that could have a timer now, page by page (after a settings change). */
export async function touchAccountTimers(deps: AppDeps, accountId: number, onPage?: () => void): Promise<number> {
  let lastId = 0;
  let touched = 0;
  for (;;) {
    const page: TimerRow[] = await deps
      .knex("conversations")
      .where("account_id", accountId)
      .whereIn("status", ["open", "snoozed"])
      .where("id", ">", lastId)
      .orderBy("id")
      .limit(200)
      .select(TIMER_COLUMNS);
    if (!page.length) return touched;
    await inParallel(page, DISPATCH_CONCURRENCY, (conversation) => touchConversationTimer(deps, timerInputOf(conversation)));
    touched += page.length;
    lastId = page.at(-1)!.id;
    onPage?.();
  }
}

/**
 * Moves timers as conversations change: each conversation event touches that conversation's timer;
 * a settings change touches all of the account's. Signals are idempotent (the workflow re-reads the
 * database), so a relay retry that repeats one is harmless.
 */
export function timerConsumer(): EventConsumer {
  return {
    async dispatch(deps, events: EventRow[]) {
      const settingsChanges = events.filter((event) => event.name === "account_auto_resolve_changed");
      await inParallel(settingsChanges, DISPATCH_CONCURRENCY, (event) => replanAccount(deps, event));

      // One touch per conversation per batch: the workflow re-reads the database anyway. A
      // conversation with nothing to wait for is told only when its status moved, and only if its
      // timer runs (it may be waiting on the old state); a stale timer that is not told re-checks when
      // it fires and ends.
      const relevant = events.filter((e) => e.conversation_id && CONVERSATION_EVENTS.has(e.name));
      const conversationIds = [...new Set(relevant.map((e) => e.conversation_id!))];
      if (!conversationIds.length) return;
      const plans = await loadTimerPlans(deps.knex, conversationIds);
      const statusMoved = new Set(relevant.filter((e) => STATUS_EVENTS.has(e.name)).map((e) => e.conversation_id!));
      const touch = conversationIds.filter((id) => plans.get(id) || statusMoved.has(id));
      const conversations: TimerRow[] = touch.length ? await deps.knex("conversations").whereIn("id", touch).select(TIMER_COLUMNS) : [];
      await inParallel(conversations, DISPATCH_CONCURRENCY, (c) => {
        const plan = plans.get(c.id);
        return plan ? touchConversationTimer(deps, timerInputOf(c), plan) : tellRunningTimer(deps, timerInputOf(c));
      });
    },
  };
}

async function replanAccount(deps: AppDeps, event: EventRow): Promise<void> {
  await startOnce(deps, "accountTimersWorkflow", {
    workflowId: accountTimersWorkflowId(deps.temporal.installationId, event.account_id, event.uid),
    work: `timers of account ${event.account_id} after event ${event.uid}`,
    args: [event.account_id],
    // A relay retry after the run finished must not touch every timer again.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [{ key: AccountIdAttribute, value: event.account_id }],
    staticSummary: `Re-plan auto-resolve timers of account ${event.account_id} after a settings change`,
  });
}

/**
 * Gives every open or snoozed conversation a timer under this installation's ids, once: after an
 * upgrade from ids without an installation (whose timers no worker polls any more), or when an
 * operator asks for it after restoring a database (npm run timers:replan).
 */
export async function adoptTimers(deps: AppDeps, options: { force?: boolean } = {}): Promise<number> {
  const due = await deps.knex("installation").first("timers_adopted_at");
  if (due?.timers_adopted_at && !options.force) return 0;
  const accountIds: number[] = await deps
    .knex("conversations")
    .join("accounts", "accounts.id", "conversations.account_id")
    .whereNull("accounts.deletion_requested_at")
    .whereIn("conversations.status", ["open", "snoozed"])
    .distinct("conversations.account_id")
    .pluck("conversations.account_id");
  const started = Date.now();
  await inParallel(accountIds, DISPATCH_CONCURRENCY, (accountId) =>
    startOnce(deps, "accountTimersWorkflow", {
      workflowId: adoptTimersWorkflowId(deps.temporal.installationId, accountId, started),
      work: `adopt timers of account ${accountId} (${started})`,
      args: [accountId],
      typedSearchAttributes: [{ key: AccountIdAttribute, value: accountId }],
      staticSummary: `Give every pending conversation of account ${accountId} a timer of this installation`,
    }),
  );
  await deps.knex("installation").update({ timers_adopted_at: deps.knex.fn.now() });
  return accountIds.length;
}
