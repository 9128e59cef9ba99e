import type { Knex } from "knex";

/** Account labels, contact labels (an array as conversations keep theirs) and canned responses. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("labels", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    // Stored downcased, as Chatwoot's before_validation does, so the unique index is case-insensitive.
    t.text("title").notNullable();
    t.text("description");
    t.text("color").notNullable().defaultTo("#1f93ff");
    t.boolean("show_on_sidebar");
    t.timestamps(true, true);
    t.unique(["account_id", "title"]);
  });

  await knex.schema.alterTable("contacts", (t) => {
    t.specificType("labels", "text[]").notNullable().defaultTo("{}");
  });
  await knex.raw("CREATE INDEX contacts_labels_gin ON contacts USING gin (labels)");

  await knex.schema.createTable("canned_responses", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.text("short_code").notNullable();
    t.text("content").notNullable();
    t.timestamps(true, true);
    t.unique(["account_id", "short_code"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("canned_responses");
  await knex.raw("DROP INDEX IF EXISTS contacts_labels_gin");
  await knex.schema.alterTable("contacts", (t) => {
    t.dropColumn("labels");
  });
  await knex.schema.dropTableIfExists("labels");
}
