import type { Knex } from "knex";

/**
 * GET search: message content is matched by ILIKE (a trigram index serves it) or, for accounts with
 * search_with_gin, by phrase full-text search (an expression index over its tsvector). Trigrams need
 * pg_trgm, installed where the server has it as in the contacts' search indexes; without it the
 * search still works, only slower. The conversation search's contact columns have their trigram
 * index already (contacts_search_trgm).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX IF NOT EXISTS messages_content_fts ON messages USING gin (to_tsvector('english', coalesce(content, '')))");
  await knex.raw(`
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
         OR (EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') AND has_database_privilege(current_database(), 'CREATE')) THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX IF NOT EXISTS messages_content_trgm ON messages USING gin (content gin_trgm_ops);
      END IF;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS messages_content_trgm");
  await knex.raw("DROP INDEX IF EXISTS messages_content_fts");
}
