import type { Knex } from "knex";

/**
 * A relay leases the batch it dispatches, instead of holding row locks only while it claims: two
 * relays never hand over the same events at once, and a relay that dies leaves a lease that expires.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.timestamp("claimed_until", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.dropColumn("claimed_until");
  });
}
