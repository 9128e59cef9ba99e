import type { Knex } from "knex";

/**
 * A message's account and inbox are its conversation's, copied from the conversation's row by both
 * writers of messages (insertMessage, insertActivityMessage), and the conversation's own keys hold them: it
 * belongs to that account and inbox (conversations_inbox_in_account), and its messages go with it
 * (ON DELETE CASCADE). The messages' own keys to accounts and inboxes checked nothing more, at a cost
 * every message paid: each check share-locks the parent row, and concurrent messages of one account
 * all lock the same account and inbox rows (PostgreSQL then builds a multixact of every locker).
 * Under the bench's concurrent posts the insert was measurably faster without them (bench/HISTORY.md).
 * messages_account_created (account_id, created_at) serves every lookup by account the single-column
 * index did, so the insert keeps one index fewer up to date.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE messages DROP CONSTRAINT messages_account_id_foreign, DROP CONSTRAINT messages_inbox_id_foreign");
  await knex.raw("DROP INDEX messages_account_id_index");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX messages_account_id_index ON messages (account_id)");
  await knex.raw(
    "ALTER TABLE messages ADD CONSTRAINT messages_account_id_foreign FOREIGN KEY (account_id) REFERENCES accounts (id), " +
      "ADD CONSTRAINT messages_inbox_id_foreign FOREIGN KEY (inbox_id) REFERENCES inboxes (id)",
  );
}
