import type { Knex } from "knex";
import { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { autoResolvedActivity } from "./activityMessages";
import { timerPlan, type ConversationTimerInput, type TimerPlan } from "./conversationTimers";

/** The conversation a timer belongs to: its row, and the uuid that row must still have. */
export type TimerTarget = Pick<ConversationTimerInput, "conversationId"> & Partial<Pick<ConversationTimerInput, "conversationUuid">>;
import { setLabels } from "./conversationAttributes";
import { openConversation, resolveConversation } from "./conversationStatus";
import { createMessage } from "./messages";

export type TimerOutcome = "resolved" | "reopened" | "gone";

/**
 * Runs when a conversation's timer fires. Under the conversation's row lock it plans again from the
 * database and acts only if the same deadline is still due: activity since the timer was set (or a
 * late or duplicate signal) means there is nothing to do, and the workflow re-plans (answer null).
 */
export async function fireConversationTimer(db: Knex, timer: TimerTarget, kind: TimerPlan["kind"], now = Date.now()): Promise<TimerOutcome | null> {
  return db.transaction(async (trx) => {
    const conversation = await Conversation.query(trx).findById(timer.conversationId).forUpdate();
    // Its number may name another conversation now (a restored database): that one has its own timer.
    if (conversation && timer.conversationUuid && conversation.uuid !== timer.conversationUuid) return "gone";
    // Inside the transaction: a second connection while holding the lock could starve the pool.
    const account = conversation && (await Account.findLive(conversation.account_id, trx));
    if (!conversation || !account) return "gone";
    const plan = timerPlan(conversation, account.settings);
    if (!plan || plan.kind !== kind || plan.at > now) return null;

    if (kind === "reopen") {
      await openConversation(trx, conversation, null);
      return "reopened";
    }
    await autoResolve(trx, conversation, account);
    return "resolved";
  });
}

/**
 * Chatwoot's Conversations::ResolutionJob for one conversation: the auto-resolve message as a
 * template (API and web widget inboxes can always reply), the label, then the resolve with its
 * "due to N minutes|hours|days of inactivity" activity (which also clears waiting_since).
 */
async function autoResolve(trx: Knex.Transaction, conversation: Conversation, account: Account): Promise<void> {
  const { auto_resolve_message: message, auto_resolve_label: label, auto_resolve_after: minutes } = account.settings;
  if (message) await createMessage(trx, conversation, { content: message, message_type: "template" }, null, null);
  if (label && !conversation.labels.includes(label)) await setLabels(trx, conversation, [...conversation.labels, label], null);
  await resolveConversation(trx, conversation, null, { activityContent: autoResolvedActivity(minutes!) });
}
