import type { Knex } from "knex";

/**
 * Reports read ranges of an account's conversations and messages by creation time, and the status
 * changes recorded in the events outbox (src/services/reports/history.ts). The events indexes are
 * partial: only the conversation_updated rows that change the status, a small share of the outbox,
 * so writing events stays cheap. Their predicate is repeated verbatim in the queries that use them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX conversations_account_created ON conversations (account_id, created_at)");
  await knex.raw("CREATE INDEX messages_account_created ON messages (account_id, created_at)");
  const statusChanges = "WHERE name = 'conversation_updated' AND jsonb_path_exists(payload -> 'changed_attributes', '$[*].status')";
  await knex.raw(`CREATE INDEX events_status_changes_account ON events (account_id, created_at) ${statusChanges}`);
  await knex.raw(`CREATE INDEX events_status_changes_conversation ON events (conversation_id, created_at) ${statusChanges}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const index of ["events_status_changes_conversation", "events_status_changes_account", "messages_account_created", "conversations_account_created"]) {
    await knex.raw(`DROP INDEX IF EXISTS ${index}`);
  }
}
