import type { Knex } from "knex";

/**
 * Every conversation shown reads its newest message: with this index that is the index's last entry
 * for the conversation, not a sort of all its messages.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX messages_conversation_created_id ON messages (conversation_id, created_at, id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS messages_conversation_created_id");
}
