/**
 * The automation action offer_slots: what POST conversations/:id/scheduling/offers does, with the
 * action's params. An activity may run twice (a retry after a commit the worker did not report), so
 * the offer's message carries the action's key, and an attempt that finds it offers nothing again;
 * the check and the offer share the conversation's lock.
 */
import type { Knex } from "knex";
import { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { Message } from "../models/Message";
import type { Actor } from "../conversations/activityMessages";
import { offerSlotsParams } from "../schemas/schedulingOffer";
import { invalid, SchedulingError } from "./errors";
import { offerSearchOf, openOffer } from "./offers";

export async function offerSlotsAction(
  db: Knex,
  conversation: Conversation,
  params: unknown[],
  actionKey: string,
  actor: Actor,
): Promise<{ status: "done" | "skipped"; detail?: string }> {
  const account = await Account.findLive(conversation.account_id, db);
  if (!account?.features?.includes("scheduling")) return { status: "skipped", detail: "scheduling is not enabled for this account" };
  const parsed = offerSlotsParams(params);
  if (!parsed.success) throw invalid({ params: parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`) });
  const search = await offerSearchOf(db, account.id, parsed.data);
  try {
    return await db.transaction(async (trx) => {
      await Conversation.lock(trx, conversation.id);
      const posted = await Message.query(trx)
        .where("conversation_id", conversation.id)
        .whereRaw("content_attributes->>'automation_action_key' = ?", [actionKey])
        .first();
      if (posted) return { status: "done" as const, detail: "offered by an earlier attempt" };
      await openOffer(trx, account, conversation, search, actor, { contentAttributes: { automation_action_key: actionKey } });
      return { status: "done" as const };
    });
  } catch (err) {
    if (err instanceof SchedulingError && err.code === "NO_FREE_SLOTS") return { status: "skipped", detail: "no free slot matches" };
    throw err;
  }
}
