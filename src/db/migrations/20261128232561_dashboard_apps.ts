import type { Knex } from "knex";

/** Chatwoot's dashboard_apps: pages an account shows as tabs beside a conversation. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("dashboard_apps", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("user_id").references("users.id").onDelete("SET NULL");
    t.text("title").notNullable();
    t.jsonb("content").notNullable().defaultTo("[]");
    t.timestamps(true, true);
    t.index(["account_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("dashboard_apps");
}
