import type { Knex } from "knex";
import type { Conversation } from "../models/Conversation";

/**
 * Chatwoot's draft messages (Conversations::DraftMessagesController): one draft per conversation,
 * as its Redis key CONVERSATION::<conversation id>::DRAFT_MESSAGE is; whoever may see the
 * conversation reads, replaces and clears the same draft.
 */
export async function readDraft(db: Knex, conversation: Pick<Conversation, "id">): Promise<string | undefined> {
  const row: { message: string } | undefined = await db("conversation_drafts").where("conversation_id", conversation.id).first("message");
  return row?.message;
}

/** Redis SET: the draft becomes `message`, whatever was there; concurrent saves leave the last one. */
export async function saveDraft(db: Knex, conversation: Pick<Conversation, "id" | "account_id">, message: string, userId: number | null): Promise<void> {
  const now = new Date();
  await db("conversation_drafts")
    .insert({ conversation_id: conversation.id, account_id: conversation.account_id, message, updated_by_id: userId, created_at: now, updated_at: now })
    .onConflict("conversation_id")
    .merge(["message", "updated_by_id", "updated_at"]);
}

/** Redis DEL: clearing a conversation without a draft is no error. */
export async function clearDraft(db: Knex, conversation: Pick<Conversation, "id">): Promise<void> {
  await db("conversation_drafts").where("conversation_id", conversation.id).delete();
}
