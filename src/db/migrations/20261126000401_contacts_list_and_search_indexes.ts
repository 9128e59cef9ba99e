import type { Knex } from "knex";

/**
 * Contacts of a large account (50,000 here): the list's default order (most recently active first)
 * and its order by name had no index, so every page sorted all of them, and the search's ILIKE on
 * name, email and phone read every row (bench/HISTORY.md has the before and after). Trigrams come from pg_trgm, which the migration installs where the server
 * has it and the database lets it; a server without it keeps the slower search.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX contacts_account_activity_id ON contacts (account_id, last_activity_at DESC NULLS LAST, id DESC)");
  await knex.raw("CREATE INDEX contacts_account_name_id ON contacts (account_id, lower(name) ASC NULLS LAST, id)");
  await knex.raw(`
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
         OR (EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') AND has_database_privilege(current_database(), 'CREATE')) THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX contacts_search_trgm ON contacts
          USING gin (name gin_trgm_ops, email gin_trgm_ops, phone_number gin_trgm_ops, identifier gin_trgm_ops);
      END IF;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  // pg_trgm stays: something else in the database may use it.
  await knex.raw("DROP INDEX IF EXISTS contacts_search_trgm");
  await knex.raw("DROP INDEX IF EXISTS contacts_account_name_id");
  await knex.raw("DROP INDEX IF EXISTS contacts_account_activity_id");
}
