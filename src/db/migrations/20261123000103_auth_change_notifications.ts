import type { Knex } from "knex";

/**
 * Every change to what authentication and account scope read announces itself on convo_sched_auth,
 * from the database itself, so every API process drops its cached principals and memberships
 * whichever process, script or operator made the change (src/services/authCache.ts).
 */
const STATEMENT_TABLES = ["access_tokens", "users", "agent_bots", "platform_apps", "account_users", "agent_bot_inboxes"];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION convo_sched_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('convo_sched_auth', TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  for (const table of STATEMENT_TABLES) {
    await knex.raw(
      `CREATE TRIGGER ${table}_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION convo_sched_auth_changed()`,
    );
  }
  // Every new conversation bumps its account's display id counter: that alone changes nothing a
  // request's scope holds, so it must not empty every cache.
  await knex.raw(`
    CREATE TRIGGER accounts_auth_changed AFTER UPDATE ON accounts FOR EACH ROW
    WHEN ((to_jsonb(OLD) - 'last_conversation_display_id') IS DISTINCT FROM (to_jsonb(NEW) - 'last_conversation_display_id'))
    EXECUTE FUNCTION convo_sched_auth_changed()`);
  await knex.raw(
    `CREATE TRIGGER accounts_auth_added_or_removed AFTER INSERT OR DELETE OR TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION convo_sched_auth_changed()`,
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of STATEMENT_TABLES) await knex.raw(`DROP TRIGGER IF EXISTS ${table}_auth_changed ON ${table}`);
  await knex.raw("DROP TRIGGER IF EXISTS accounts_auth_changed ON accounts");
  await knex.raw("DROP TRIGGER IF EXISTS accounts_auth_added_or_removed ON accounts");
  await knex.raw("DROP FUNCTION IF EXISTS convo_sched_auth_changed()");
}
