import type { Knex } from "knex";

/**
 * An event the relay cannot hand over is put back with a growing delay instead of being retried at
 * the head of every batch, so one bad event never holds up the events behind it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.integer("dispatch_attempts").notNullable().defaultTo(0);
    t.timestamp("dispatch_after", { useTz: true });
    t.text("last_dispatch_error");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.dropColumn("dispatch_attempts");
    t.dropColumn("dispatch_after");
    t.dropColumn("last_dispatch_error");
  });
}
