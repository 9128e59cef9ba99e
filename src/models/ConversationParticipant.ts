import type { Knex } from "knex";
import { BaseModel } from "./BaseModel";
import { AccountUser } from "./AccountUser";
import { InboxMember, loadMembers, type Member } from "./InboxMember";

/** An agent following a conversation (Chatwoot's ConversationParticipant). */
export class ConversationParticipant extends BaseModel {
  static tableName = "conversation_participants";

  declare account_id: number;
  declare conversation_id: number;
  declare user_id: number;

  /** The participants as agents, in the order they joined. */
  static async membersOf(accountId: number, conversationId: number, db?: Knex): Promise<Member[]> {
    const rows = await ConversationParticipant.query(db).where("conversation_id", conversationId).orderBy("id").select("user_id");
    return loadMembers(
      accountId,
      rows.map((row) => row.user_id),
      db,
    );
  }

  /**
   * ConversationParticipant#ensure_inbox_access: participants are the inbox's assignable agents,
   * its members and the account's administrators. Returns the ids that are not.
   */
  static async withoutInboxAccess(accountId: number, inboxId: number, userIds: number[], db?: Knex): Promise<number[]> {
    const unique = [...new Set(userIds)];
    if (!unique.length) return [];
    const allowed = await AccountUser.query(db)
      .where("account_id", accountId)
      .whereIn("user_id", unique)
      .where((q) => q.where("role", "administrator").orWhereIn("user_id", InboxMember.query(db).select("user_id").where("inbox_id", inboxId)))
      .select("user_id");
    const ok = new Set(allowed.map((row) => row.user_id));
    return unique.filter((id) => !ok.has(id));
  }

  /** Adds the users not yet participants (racing additions leave one row each); returns the ids added. */
  static async add(trx: Knex.Transaction, accountId: number, conversationId: number, userIds: number[]): Promise<number[]> {
    const unique = [...new Set(userIds)];
    if (!unique.length) return [];
    const inserted: { user_id: number }[] = await trx("conversation_participants")
      .insert(unique.map((user_id) => ({ account_id: accountId, conversation_id: conversationId, user_id })))
      .onConflict(["conversation_id", "user_id"])
      .ignore()
      .returning("user_id");
    return inserted.map((row) => row.user_id);
  }

  static async remove(trx: Knex.Transaction, conversationId: number, userIds: number[]): Promise<void> {
    if (userIds.length) await trx("conversation_participants").where("conversation_id", conversationId).whereIn("user_id", userIds).delete();
  }

  static async removeOthers(trx: Knex.Transaction, conversationId: number, userIds: number[]): Promise<void> {
    await trx("conversation_participants").where("conversation_id", conversationId).whereNotIn("user_id", userIds).delete();
  }
}
