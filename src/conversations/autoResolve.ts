import type { Knex } from "knex";
import { logger } from "../lib/logger";
import { inParallel } from "../lib/inParallel";
import { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { autoResolvedActivity } from "./activityMessages";
import { setLabels } from "./attributes";
import { changeStatusIn } from "./status";
import { timerPlan, writeTimerDues, type ConversationTimerInput, type TimerDue, type TimerPlan } from "./timers";
import { inUnit, type Unit } from "./unit";
import { createMessage } from "./messages";

const log = logger.child({ component: "timer_sweep" });

/** The conversation a timer belongs to: its row, and the uuid that row must still have. */
export type TimerTarget = Pick<ConversationTimerInput, "conversationId"> & Partial<Pick<ConversationTimerInput, "conversationUuid">>;

export type TimerOutcome = "resolved" | "reopened" | "gone";

/**
 * Runs when conversations' deadlines pass, in one unit of work (one transaction, their events' payloads
 * loaded together). Under the rows' locks each conversation is planned again from the database and
 * acted on only if a deadline (of `kind`, when the caller waited for one) is due: activity since the
 * deadline was planned means there is nothing to do (outcome null). Either way each row's timer_due_at
 * ends up as the conversation's plan now, so a sweep never finds it due again. A target whose row is
 * gone, or now names another conversation (its uuid differs), or whose account is being deleted, is "gone".
 */
export async function fireConversationTimers(
  db: Knex,
  targets: TimerTarget[],
  kind?: TimerPlan["kind"],
  now = Date.now(),
): Promise<Map<number, TimerOutcome | null>> {
  const outcomes = new Map<number, TimerOutcome | null>(targets.map((target) => [target.conversationId, "gone"]));
  const uuidOf = new Map(targets.map((target) => [target.conversationId, target.conversationUuid]));
  return inUnit(db, async (unit) => {
    // In id order, as every lock of several conversations is taken, so two sweeps cannot deadlock.
    const conversations = await Conversation.query(unit.trx)
      .whereIn("id", [...outcomes.keys()])
      .orderBy("id")
      .forUpdate();
    const accountIds = [...new Set(conversations.map((conversation) => conversation.account_id))];
    const accounts = new Map((await Account.live(unit.trx).whereIn("id", accountIds)).map((account) => [account.id, account]));
    const dues: TimerDue[] = [];
    for (const conversation of conversations) {
      // Its number may name another conversation now (a restored database): that one has its own deadline.
      const uuid = uuidOf.get(conversation.id);
      if (uuid && conversation.uuid !== uuid) continue;
      const account = accounts.get(conversation.account_id);
      const plan = account ? timerPlan(conversation, account.settings) : null;
      let after: Conversation | null = null;
      if (account && plan && (!kind || plan.kind === kind) && plan.at <= now) {
        if (plan.kind === "resolve") after = await autoResolve(unit, conversation, account);
        else {
          await changeStatusIn(unit, conversation.id, "open", null);
          // Reopened, it waits to auto-resolve from its last activity, which the reopen's activity message has just moved.
          after = await Conversation.query(unit.trx).findById(conversation.id).throwIfNotFound();
        }
        outcomes.set(conversation.id, plan.kind === "reopen" ? "reopened" : "resolved");
      } else if (account) {
        outcomes.set(conversation.id, null);
      }
      const due = after && account ? (timerPlan(after, account.settings)?.at ?? null) : (plan?.at ?? null);
      if (due !== (conversation.timer_due_at?.getTime() ?? null)) dues.push({ id: conversation.id, at: due });
    }
    await writeTimerDues(unit.trx, dues);
    return outcomes;
  });
}

/** fireConversationTimers for one conversation. */
export async function fireConversationTimer(db: Knex, timer: TimerTarget, kind?: TimerPlan["kind"], now = Date.now()): Promise<TimerOutcome | null> {
  return (await fireConversationTimers(db, [timer], kind, now)).get(timer.conversationId)!;
}

/**
 * Chatwoot's Conversations::ResolutionJob for one conversation: the auto-resolve message as a
 * template (API and web widget inboxes can always reply), the label, then the resolve with its
 * "due to N minutes|hours|days of inactivity" activity (which also clears waiting_since).
 */
async function autoResolve(unit: Unit, conversation: Conversation, account: Account): Promise<Conversation> {
  const { auto_resolve_message: message, auto_resolve_label: label, auto_resolve_after: minutes } = account.settings;
  if (message) await createMessage(unit.trx, conversation, { content: message, message_type: "template" }, null, null);
  if (label && !conversation.labels.includes(label)) await setLabels(unit.trx, conversation, [...conversation.labels, label], null);
  return changeStatusIn(unit, conversation.id, "resolved", null, { activityContent: autoResolvedActivity(minutes!) });
}

/** What one sweep did, and when the next deadline is (Unix milliseconds; null when none waits). */
export interface SweepResult {
  resolved: number;
  reopened: number;
  /** Due but not acted on: activity since the deadline was planned, or the account is going. */
  skipped: number;
  failed: number;
  next: number | null;
}

/** How long a conversation whose timer failed to act waits before the sweep tries it again. */
const FAILED_RETRY_SECONDS = 60;

/**
 * Conversations fired in one transaction: their events' payloads load together, and a transaction's
 * fixed cost is shared, while the rows stay locked for a few tens of milliseconds only.
 */
const SWEEP_CHUNK = 20;

/**
 * One sweep: fires the due conversations (earliest first, at most `limit`, so a backlog after an outage
 * goes in bounded sweeps) in chunks, then answers the earliest deadline left and writes it as the
 * sweep's wake-up, under the installation row's lock that planning takes too (see conversationTimers.planTimers).
 */
export async function sweepConversationTimers(db: Knex, { limit = 500, parallel = 4 } = {}): Promise<SweepResult> {
  const due: number[] = await db("conversations").where("timer_due_at", "<=", db.fn.now()).orderBy("timer_due_at").limit(limit).pluck("id");
  const result: SweepResult = { resolved: 0, reopened: 0, skipped: 0, failed: 0, next: null };
  const count = (outcomes: Map<number, TimerOutcome | null>) => {
    for (const outcome of outcomes.values()) {
      if (outcome === "resolved") result.resolved++;
      else if (outcome === "reopened") result.reopened++;
      else result.skipped++;
    }
  };
  const chunks = Array.from({ length: Math.ceil(due.length / SWEEP_CHUNK) }, (_, i) => due.slice(i * SWEEP_CHUNK, (i + 1) * SWEEP_CHUNK));
  await inParallel(chunks, parallel, async (chunk) => {
    try {
      count(
        await fireConversationTimers(
          db,
          chunk.map((conversationId) => ({ conversationId })),
        ),
      );
    } catch {
      // One conversation that cannot be resolved (a rule it breaks, say) must not hold up the others: one by one.
      for (const conversationId of chunk) {
        try {
          count(await fireConversationTimers(db, [{ conversationId }]));
        } catch (err) {
          result.failed++;
          log.error({ err, conversation_id: conversationId }, `conversation timer failed; tried again in ${FAILED_RETRY_SECONDS} s`);
          await db("conversations")
            .where("id", conversationId)
            .update({ timer_due_at: db.raw("now() + make_interval(secs => ?)", [FAILED_RETRY_SECONDS]) });
        }
      }
    }
  });
  result.next = await db.transaction(async (trx) => {
    await trx("installation").forUpdate().first("id");
    const row = await trx("conversations").whereNotNull("timer_due_at").min("timer_due_at as next").first();
    const next: Date | null = row?.next ?? null;
    await trx("installation").update({ timers_wake_at: next });
    return next && next.getTime();
  });
  return result;
}
