import type { Knex } from "knex";

/** Chatwoot's macros: a named, ordered list of automation actions an agent runs on conversations. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("macros", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.text("name").notNullable();
    // Chatwoot's enum personal 0 / global 1, stored by name.
    t.text("visibility").notNullable().defaultTo("personal");
    t.jsonb("actions").notNullable().defaultTo("[]");
    t.bigInteger("created_by_id").references("users.id").onDelete("SET NULL");
    t.bigInteger("updated_by_id").references("users.id").onDelete("SET NULL");
    t.timestamps(true, true);
    t.index(["account_id"]);
  });
  await knex.raw("alter table macros add constraint macros_visibility_check check (visibility in ('personal', 'global'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("macros");
}
