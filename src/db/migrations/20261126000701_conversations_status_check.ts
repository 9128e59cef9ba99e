import type { Knex } from "knex";

/**
 * A conversation's status is one of Chatwoot's four, held by the database: the list of every status
 * reads each status's newest conversations and merges them (services/conversationList.ts), so a
 * conversation of any other status would never be listed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE conversations ADD CONSTRAINT conversations_status_known CHECK (status IN ('open', 'resolved', 'pending', 'snoozed'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE conversations DROP CONSTRAINT conversations_status_known");
}
