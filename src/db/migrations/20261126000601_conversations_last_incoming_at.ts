import type { Knex } from "knex";

/**
 * When the conversation's newest incoming message was written: a conversation is unread while this
 * is after agent_last_seen_at. unread_counts looked into every open conversation's messages to
 * decide that, at a cost growing with the open conversations; the column is a comparison on the row. The
 * message's insert sets it in the update of the conversation it already makes (services/messages.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE conversations ADD COLUMN last_incoming_at timestamptz");
  await knex.raw(
    `UPDATE conversations c SET last_incoming_at = m.newest
     FROM (SELECT conversation_id, max(created_at) AS newest FROM messages WHERE message_type = 0 GROUP BY conversation_id) m
     WHERE c.id = m.conversation_id`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE conversations DROP COLUMN last_incoming_at");
}
