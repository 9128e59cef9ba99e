import type { Knex } from "knex";

const OWNERS = ["contacts", "agent_bots", "inboxes"] as const;

/**
 * Stored avatars of contacts, agent bots and inboxes (an uploaded `avatar` file or a fetched
 * `avatar_url`). Replacing or deleting one queues the old file for removal after the commit, as
 * attachments do; agent bots without an account queue under account 0.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of OWNERS) {
    await knex.schema.alterTable(table, (t) => {
      t.text("avatar_key");
      // The avatar_url whose image was last fetched (or failed to be), so a repeat is not fetched again.
      t.text("avatar_fetched_url");
    });
  }
  await knex.raw(`
    CREATE FUNCTION queue_avatar_file_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.avatar_key IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.avatar_key IS DISTINCT FROM OLD.avatar_key) THEN
        INSERT INTO file_deletions (account_id, storage_key) VALUES (COALESCE(OLD.account_id, 0), OLD.avatar_key);
      END IF;
      RETURN NULL;
    END $$;
  `);
  for (const table of OWNERS) {
    await knex.raw(
      `CREATE TRIGGER ${table}_queue_avatar_deletion AFTER UPDATE OF avatar_key OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION queue_avatar_file_deletion()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of OWNERS) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_queue_avatar_deletion ON ${table}`);
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn("avatar_key");
      t.dropColumn("avatar_fetched_url");
    });
  }
  await knex.raw("DROP FUNCTION IF EXISTS queue_avatar_file_deletion()");
}
