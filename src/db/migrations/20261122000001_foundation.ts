import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("accounts", (t) => {
    t.bigIncrements("id");
    t.string("name").notNullable();
    t.string("locale").notNullable().defaultTo("en");
    t.string("domain", 100);
    t.string("support_email");
    t.string("status").notNullable().defaultTo("active");
    t.specificType("features", "text[]").notNullable().defaultTo("{}");
    t.jsonb("settings").notNullable().defaultTo("{}");
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.jsonb("limits").notNullable().defaultTo("{}");
    // Set when a platform app deletes the account: the account disappears from the API at once,
    // and a workflow removes its rows in batches.
    t.timestamp("deletion_requested_at", { useTz: true });
    t.timestamps(true, true);
  });

  await knex.schema.createTable("users", (t) => {
    t.bigIncrements("id");
    t.string("name").notNullable();
    t.string("display_name");
    t.string("email").notNullable();
    t.string("encrypted_password");
    t.string("provider").notNullable().defaultTo("email");
    t.string("uid").notNullable();
    t.string("pubsub_token").notNullable().unique();
    t.string("message_signature");
    t.string("avatar_url");
    t.string("type");
    t.timestamp("confirmed_at", { useTz: true });
    t.jsonb("ui_settings").notNullable().defaultTo("{}");
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamps(true, true);
  });
  await knex.raw("CREATE UNIQUE INDEX users_email_unique ON users (lower(email))");

  await knex.schema.createTable("account_users", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.string("role").notNullable().defaultTo("agent");
    t.bigInteger("inviter_id").references("users.id").onDelete("SET NULL");
    t.string("availability").notNullable().defaultTo("online");
    t.boolean("auto_offline").notNullable().defaultTo(true);
    t.timestamp("active_at", { useTz: true });
    t.timestamps(true, true);
    t.unique(["account_id", "user_id"]);
    t.index(["user_id"]);
  });

  await knex.schema.createTable("platform_apps", (t) => {
    t.bigIncrements("id");
    t.string("name").notNullable();
    t.timestamps(true, true);
  });

  await knex.schema.createTable("platform_app_permissibles", (t) => {
    t.bigIncrements("id");
    t.bigInteger("platform_app_id").notNullable().references("platform_apps.id").onDelete("CASCADE");
    t.string("permissible_type").notNullable();
    t.bigInteger("permissible_id").notNullable();
    t.timestamps(true, true);
    t.unique(["platform_app_id", "permissible_type", "permissible_id"]);
    t.index(["permissible_type", "permissible_id"]);
  });

  await knex.schema.createTable("agent_bots", (t) => {
    t.bigIncrements("id");
    t.string("name");
    t.text("description");
    t.string("outgoing_url", 2048);
    t.string("avatar_url", 2048);
    t.integer("bot_type").notNullable().defaultTo(0);
    t.jsonb("bot_config").notNullable().defaultTo("{}");
    t.bigInteger("account_id").references("accounts.id");
    t.string("secret").notNullable();
    t.timestamps(true, true);
    t.index(["account_id"]);
  });

  await knex.schema.createTable("access_tokens", (t) => {
    t.bigIncrements("id");
    t.string("owner_type").notNullable();
    t.bigInteger("owner_id").notNullable();
    t.string("token").notNullable().unique();
    t.timestamps(true, true);
    t.unique(["owner_type", "owner_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["access_tokens", "agent_bots", "platform_app_permissibles", "platform_apps", "account_users", "users", "accounts"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
