import type { Knex } from "knex";

/** Saved filters (Chatwoot's custom views): one user's, in one account. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("custom_filters", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.text("name").notNullable();
    // Chatwoot's integer enum: conversation 0, contact 1, report 2.
    t.smallint("filter_type").notNullable().defaultTo(0);
    t.jsonb("query").notNullable();
    t.timestamps(true, true);
    t.index(["account_id", "user_id", "filter_type"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("custom_filters");
}
