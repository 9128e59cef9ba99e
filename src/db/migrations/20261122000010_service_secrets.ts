import type { Knex } from "knex";

/**
 * Secrets the service generates for itself when the environment gives none (the widget token key
 * without SECRET_KEY_BASE): kept here so tokens outlive a restart and no secret is committed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("service_secrets", (t) => {
    t.text("name").primary();
    t.text("value").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("service_secrets");
}
