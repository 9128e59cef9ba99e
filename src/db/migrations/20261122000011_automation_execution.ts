import type { Knex } from "knex";

/**
 * The automation rule whose action caused an event, so rules never trigger on their own effects
 * (Chatwoot's performed_by check). A plain id, not a foreign key: deleting a rule must not wait on
 * its old events, and the id is only ever compared with null.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.bigInteger("performed_by_rule_id");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.dropColumn("performed_by_rule_id");
  });
}
