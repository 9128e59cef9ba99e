import type { Knex } from "knex";

/**
 * The transactional outbox: a change that emits an event writes its row in the same transaction,
 * and a relay hands committed rows to Temporal.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("events", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("name").notNullable();
    /** The complete delivery body, built when the event happened. */
    t.jsonb("payload").notNullable();
    /** Database ids that decide where the event goes (API inbox webhook, agent bots). */
    t.bigInteger("inbox_id");
    t.bigInteger("conversation_id");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("dispatched_at", { useTz: true });
    t.index(["account_id", "id"]);
  });
  await knex.raw("CREATE INDEX events_undispatched ON events (id) WHERE dispatched_at IS NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("events");
}
