import type { Knex } from "knex";

/**
 * The tables as autovacuum leaves them in service, for a case that has just written its data:
 * statistics fresh, visibility maps set, a trigram index's pending entries merged. Without statistics
 * the planner takes a just-written table for empty and picks plans no running service would; the
 * server may also run with autovacuum off.
 */
export async function asInService(knex: Knex): Promise<void> {
  await knex.raw("vacuum analyze");
}
