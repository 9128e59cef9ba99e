import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("automation_rules", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").index();
    // text, not knex's varchar(255): Rails' string columns have no limit (see 20261122000008).
    t.text("name").notNullable();
    t.text("description");
    t.text("event_name").notNullable();
    t.jsonb("conditions").notNullable();
    t.jsonb("actions").notNullable();
    t.boolean("active").notNullable().defaultTo(true);
    t.timestamps(true, true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("automation_rules");
}
