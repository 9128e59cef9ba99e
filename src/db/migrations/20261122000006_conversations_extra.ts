import type { Knex } from "knex";

/** Indexes for the conversation list (label filter, newest first per inbox) and the message pages. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX conversations_labels_gin ON conversations USING gin (labels)");
  await knex.raw("CREATE INDEX conversations_account_inbox_activity ON conversations (account_id, inbox_id, last_activity_at DESC)");
  await knex.raw("CREATE INDEX messages_conversation_type_created ON messages (conversation_id, message_type, created_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS messages_conversation_type_created");
  await knex.raw("DROP INDEX IF EXISTS conversations_account_inbox_activity");
  await knex.raw("DROP INDEX IF EXISTS conversations_labels_gin");
}
