import type { Knex } from "knex";

/** Chatwoot's integrations_hooks: an account's configuration of an integration app (integrations/apps). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("integrations_hooks", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.text("app_id").notNullable();
    t.bigInteger("inbox_id").references("inboxes.id").onDelete("CASCADE");
    // Chatwoot's integer enums: status disabled 0 / enabled 1; hook_type account 0 / inbox 1.
    t.smallint("status").notNullable().defaultTo(1);
    t.smallint("hook_type").notNullable().defaultTo(0);
    t.jsonb("settings").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.index(["account_id", "app_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("integrations_hooks");
}
