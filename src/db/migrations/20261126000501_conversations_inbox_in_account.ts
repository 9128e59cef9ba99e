import type { Knex } from "knex";

/**
 * A conversation's inbox is one of its own account's, held by the database rather than by every
 * path that creates a conversation. The lists lean on it: a caller who sees every inbox of the
 * account sees every conversation of the account, so their scope needs no join to inboxes, whose
 * semi-join made PostgreSQL count the list's conversations along a worse index (bench/HISTORY.md). The key is checked only when a conversation's account or inbox changes, never
 * on the activity updates every message makes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE UNIQUE INDEX inboxes_account_id_id_unique ON inboxes (account_id, id)");
  await knex.raw(
    "ALTER TABLE conversations ADD CONSTRAINT conversations_inbox_in_account FOREIGN KEY (account_id, inbox_id) REFERENCES inboxes (account_id, id)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE conversations DROP CONSTRAINT conversations_inbox_in_account");
  await knex.raw("DROP INDEX inboxes_account_id_id_unique");
}
