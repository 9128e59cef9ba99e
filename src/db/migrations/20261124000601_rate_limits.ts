import type { Knex } from "knex";

/**
 * Rate-limit counters (rate-limiter-flexible's Postgres layout), shared by every API instance.
 * UNLOGGED: a crash may reset the counters, which only forgives a few requests, and spares the WAL a
 * write for every counted request.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE UNLOGGED TABLE rate_limits (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("rate_limits");
}
