import type { Knex } from "knex";

/**
 * Users' uploaded avatars (PUT /api/v1/profile with an `avatar` file). Users belong to no single
 * account, so a replaced or deleted avatar is queued for removal under account 0, as account-less
 * agent bots' are.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => t.text("avatar_key"));
  await knex.raw(`
    CREATE FUNCTION queue_user_avatar_file_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.avatar_key IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.avatar_key IS DISTINCT FROM OLD.avatar_key) THEN
        INSERT INTO file_deletions (account_id, storage_key) VALUES (0, OLD.avatar_key);
      END IF;
      RETURN NULL;
    END $$;
  `);
  await knex.raw(
    "CREATE TRIGGER users_queue_avatar_deletion AFTER UPDATE OF avatar_key OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION queue_user_avatar_file_deletion()",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER IF EXISTS users_queue_avatar_deletion ON users");
  await knex.raw("DROP FUNCTION IF EXISTS queue_user_avatar_file_deletion()");
  await knex.schema.alterTable("users", (t) => t.dropColumn("avatar_key"));
}
