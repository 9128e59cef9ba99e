import { randomBytes } from "node:crypto";
import type { Knex } from "knex";

/**
 * Workflow ids must never repeat across databases: a new database numbers its rows from 1 again,
 * and a restored one reuses the numbers after its restore point, while Temporal remembers every id
 * it has seen. So the database gets an identity of its own (the installation), and every event a
 * random uid that a restore cannot hand out twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("installation", (t) => {
    t.text("id").primary();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    /** Set once the worker has moved every pending conversation timer onto this installation's ids. */
    t.timestamp("timers_adopted_at", { useTz: true });
  });
  // One row, ever: the singleton key makes a second insert fail instead of forking the identity.
  await knex.raw("CREATE UNIQUE INDEX installation_singleton ON installation ((true))");
  await knex("installation").insert({ id: randomBytes(6).toString("hex") });

  await knex.schema.alterTable("events", (t) => {
    t.uuid("uid").notNullable().defaultTo(knex.raw("gen_random_uuid()")).unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.dropColumn("uid");
  });
  await knex.schema.dropTableIfExists("installation");
}
