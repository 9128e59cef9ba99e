import type { Knex } from "knex";

/**
 * One-time SSO login tokens (Chatwoot keeps them in Redis for five minutes): only a digest is stored,
 * so a database read never yields a usable token.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("user_sso_tokens", (t) => {
    t.bigIncrements("id");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.text("token_digest").notNullable().unique();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["user_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("user_sso_tokens");
}
