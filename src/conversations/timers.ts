import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import { isIn, type Sql, sql, sqlText } from "../db/sql";
import { Batch } from "../db/batch";
import type { AppDeps } from "../deps";
import type { AccountSettings } from "../models/Account";
import type { Conversation } from "../models/Conversation";
import { startOnce } from "../temporal/client";
import { accountTimersWorkflowId, adoptTimersWorkflowId, timerSweepWorkflowId, WAKE_SIGNAL, type TimerSweepInput } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { BatchReads, type EventConsumer, type EventRow } from "../events/outbox";

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
 * The one rule for when a conversation's timer fires (docs/events-and-webhooks.md): open
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

type PlanRow = TimerConversation & { id: number; uuid: string; timer_due_at: Date | null; settings: AccountSettings | null; live: boolean };

/**
 * What planning reads of each conversation: its row, its deadline as written, and its account's
 * settings. A Batch's statement, so PostgreSQL plans it once per connection (as knex's unnamed
 * statement it was planned on every batch, for longer than it ran).
 */
function planRowsSql(conversationIds: number[], { lock }: { lock: boolean }): Sql {
  return sql`SELECT c.id, c.uuid, c.status, c.contact_id, c.snoozed_until, c.last_activity_at, c.waiting_since, c.timer_due_at,
            a.settings, a.deletion_requested_at IS NULL AS live
     FROM conversations c JOIN accounts a ON a.id = c.account_id
     WHERE ${isIn("c.id", conversationIds)} ORDER BY c.id${sqlText(lock ? " FOR UPDATE OF c" : "")}`;
}

const planRows = (db: Knex, conversationIds: number[], options: { lock: boolean }) => Batch.rowsOf<PlanRow>(db, planRowsSql(conversationIds, options));

/** A conversation of an account being deleted waits for nothing. */
const planOf = (row: PlanRow): TimerPlan | null => (row.live ? timerPlan(row, row.settings ?? {}) : null);

/**
 * Writes the deadlines of these conversations (timer_due_at) from their rows, under their row locks so
 * that two relays planning the same conversation from different moments cannot leave the older plan
 * behind. When a deadline comes before the sweep's next wake-up, the sweep is woken (or started): a
 * later one it finds by itself. The sweep's wake-up is lowered in the same transaction, so a retry
 * after a failed signal signals again.
 */
export async function planTimers(deps: AppDeps, conversationIds: number[]): Promise<void> {
  if (conversationIds.length) await planTimersOf(deps, await planRows(deps.knex, conversationIds, { lock: false }));
}

/**
 * planTimers from the conversations' rows read without locks. Most conversations wait for nothing and
 * never did (their account does not auto-resolve): the read tells, and only the others are locked and
 * planned, in a transaction only when there are some. Skipping one writes nothing, so it can leave no
 * older plan behind; a change that makes it wait raises an event of its own.
 */
async function planTimersOf(deps: AppDeps, unlocked: PlanRow[]): Promise<void> {
  const mayWait = unlocked.filter((row) => row.timer_due_at !== null || planOf(row) !== null).map((row) => row.id);
  if (!mayWait.length) return;
  // The earliest deadline when it comes before the sweep's wake-up, else null.
  const wakeAt = await deps.knex.transaction(async (trx) => {
    const rows = await planRows(trx, mayWait, { lock: true });
    const changes: TimerDue[] = [];
    let earliest: number | null = null;
    for (const row of rows) {
      const at = planOf(row)?.at ?? null;
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
      if (at !== (row.timer_due_at?.getTime() ?? null)) changes.push({ id: row.id, at });
    }
    await writeTimerDues(trx, changes);
    return earliest !== null && (await lowerSweepWake(trx, earliest)) ? earliest : null;
  });
  if (wakeAt !== null) await wakeTimerSweep(deps, wakeAt);
}

/** A conversation's deadline to write: Unix milliseconds, or null when none waits. */
export interface TimerDue {
  id: number;
  at: number | null;
}

/** Writes deadlines in one statement; the caller holds the rows' locks. */
export async function writeTimerDues(trx: Knex.Transaction, dues: TimerDue[]): Promise<void> {
  if (!dues.length) return;
  const rows = dues.map(({ id, at }) => ({ id, due: at === null ? null : new Date(at).toISOString() }));
  // The ids again as an array: PostgreSQL estimates a recordset at a hundred rows and, without them,
  // joins it to every conversation by a sequential scan.
  await trx.raw(
    "UPDATE conversations c SET timer_due_at = v.due FROM jsonb_to_recordset(?::jsonb) AS v(id bigint, due timestamptz) WHERE c.id = v.id AND c.id = ANY(?::bigint[])",
    [JSON.stringify(rows), rows.map((row) => row.id)],
  );
}

/**
 * How long past its wake-up the sweep may not have written a new one before a re-plan takes it for
 * gone (terminated by an operator, a reset namespace) and starts it again.
 */
const SWEEP_OVERDUE_SECONDS = 60;

/**
 * Lowers the sweep's wake-up to `at` if it wakes later, or not at all; answers whether the sweep must
 * be told. An equal wake-up is told again (the signal after the first lowering may have failed).
 */
async function lowerSweepWake(trx: Knex.Transaction, at: number): Promise<boolean> {
  const { rowCount } = await trx.raw(
    `UPDATE installation SET timers_wake_at = ?
     WHERE timers_wake_at IS NULL OR timers_wake_at >= ? OR timers_wake_at < now() - make_interval(secs => ?)`,
    [new Date(at), new Date(at), SWEEP_OVERDUE_SECONDS],
  );
  return (rowCount ?? 0) > 0;
}

/** Wakes the installation's timer sweep at `at` (Unix milliseconds), starting it if it is not running. */
export async function wakeTimerSweep(deps: AppDeps, at: number): Promise<void> {
  const input: TimerSweepInput = { wakeAt: at };
  await deps.temporal.client.workflow.signalWithStart("timerSweepWorkflow", {
    workflowId: timerSweepWorkflowId(deps.temporal.installationId),
    taskQueue: deps.temporal.taskQueue,
    args: [input],
    signal: WAKE_SIGNAL,
    signalArgs: [at],
    staticSummary: "Auto-resolves idle conversations and reopens snoozed ones when their deadlines pass",
  });
}

/** Makes sure the sweep runs for the earliest pending deadline (at a worker start, after a restore). */
export async function resumeTimerSweep(deps: AppDeps): Promise<number | null> {
  const row = await deps.knex("conversations").whereNotNull("timer_due_at").min("timer_due_at as next").first();
  const next: Date | null = row?.next ?? null;
  if (next) await wakeTimerSweep(deps, next.getTime());
  return next && next.getTime();
}

const CONVERSATION_EVENTS = new Set(["conversation_created", "conversation_updated", "conversation_status_changed", "message_created", "message_updated"]);

/** Re-plans every conversation of the account that has or could have a timer, page by page (after a settings change). */
export async function touchAccountTimers(deps: AppDeps, accountId: number, onPage?: () => void): Promise<number> {
  let lastId = 0;
  let planned = 0;
  for (;;) {
    const page: number[] = await deps
      .knex("conversations")
      .where("account_id", accountId)
      .where((q) => q.whereIn("status", ["open", "snoozed"]).orWhereNotNull("timer_due_at"))
      .where("id", ">", lastId)
      .orderBy("id")
      .limit(500)
      .pluck("id");
    if (!page.length) return planned;
    await planTimers(deps, page);
    planned += page.length;
    lastId = page.at(-1)!;
    onPage?.();
  }
}

/**
 * Moves deadlines as conversations change: each batch re-plans the conversations its events name, in
 * one transaction; a settings change re-plans all of the account's. Planning reads the rows, so a
 * relay retry that repeats a batch changes nothing.
 */
export function timerConsumer(): EventConsumer {
  const rowsRead = new BatchReads<PlanRow[]>();
  const conversationsOf = (events: EventRow[]) => [
    ...new Set(events.filter((e) => e.conversation_id && CONVERSATION_EVENTS.has(e.name)).map((e) => e.conversation_id!)),
  ];
  return {
    read(batch, events) {
      const conversationIds = conversationsOf(events);
      if (conversationIds.length) rowsRead.keep(events, batch.rows<PlanRow>(planRowsSql(conversationIds, { lock: false })));
    },
    async dispatch(deps, events: EventRow[]) {
      const settingsChanges = events.filter((event) => event.name === "account_auto_resolve_changed");
      await inParallel(settingsChanges, DISPATCH_CONCURRENCY, (event) => replanAccount(deps, event));
      const conversationIds = conversationsOf(events);
      if (!conversationIds.length) return;
      // An event retried alone plans its own conversation, out of the batch's rows.
      const rows = await rowsRead.of(events, () => planRows(deps.knex, conversationIds, { lock: false }));
      const named = new Set(conversationIds);
      await planTimersOf(
        deps,
        rows.filter((row) => named.has(row.id)),
      );
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
 * Plans every pending deadline of every account again, once: after the upgrade that moved timers into
 * timer_due_at (its migration clears timers_adopted_at), or when an operator asks for it after
 * restoring a database (npm run timers:replan).
 */
export async function adoptTimers(deps: AppDeps, options: { force?: boolean } = {}): Promise<number> {
  const due = await deps.knex("installation").first("timers_adopted_at");
  if (due?.timers_adopted_at && !options.force) return 0;
  const accountIds: number[] = await deps
    .knex("conversations")
    .where((q) => q.whereIn("status", ["open", "snoozed"]).orWhereNotNull("timer_due_at"))
    .distinct("account_id")
    .pluck("account_id");
  const started = Date.now();
  await inParallel(accountIds, DISPATCH_CONCURRENCY, (accountId) =>
    startOnce(deps, "accountTimersWorkflow", {
      workflowId: adoptTimersWorkflowId(deps.temporal.installationId, accountId, started),
      work: `adopt timers of account ${accountId} (${started})`,
      args: [accountId],
      typedSearchAttributes: [{ key: AccountIdAttribute, value: accountId }],
      staticSummary: `Plan the auto-resolve and snooze deadlines of account ${accountId} again`,
    }),
  );
  await deps.knex("installation").update({ timers_adopted_at: deps.knex.fn.now() });
  return accountIds.length;
}
