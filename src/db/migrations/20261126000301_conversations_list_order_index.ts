import type { Knex } from "knex";

/**
 * The conversation list's default order is last_activity_at and then the id (so pages never
 * overlap). With the id in the index a page is read in that order and PostgreSQL stops after 25;
 * without it, each page was sorted: an incremental sort of the first rows in a large account, but a
 * sort of every open conversation where PostgreSQL took the table for small.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX conversations_account_status_activity_id ON conversations (account_id, status, last_activity_at, id)");
  await knex.raw("DROP INDEX conversations_account_id_status_last_activity_at_index");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX conversations_account_id_status_last_activity_at_index ON conversations (account_id, status, last_activity_at)");
  await knex.raw("DROP INDEX conversations_account_status_activity_id");
}
