import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhooks", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("inbox_id").references("inboxes.id").onDelete("SET NULL");
    t.string("name");
    t.string("url", 2048).notNullable();
    t.specificType("subscriptions", "text[]").notNullable();
    t.string("secret").notNullable();
    t.timestamps(true, true);
    t.unique(["account_id", "url"]);
  });

  /** One row per (event, target): what an operator reads in the delivery log and can redeliver. */
  await knex.schema.createTable("webhook_deliveries", (t) => {
    t.uuid("id").primary();
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("event_id").notNullable().references("events.id").onDelete("CASCADE");
    t.string("event_name").notNullable();
    /** account_webhook, api_inbox or agent_bot, and the id of that webhook, inbox or bot. */
    t.string("target_type").notNullable();
    t.bigInteger("target_id").notNullable();
    t.bigInteger("webhook_id").references("webhooks.id").onDelete("SET NULL");
    t.string("url", 2048).notNullable();
    t.string("status").notNullable().defaultTo("pending");
    t.integer("attempts").notNullable().defaultTo(0);
    t.integer("last_response_code");
    t.text("last_error");
    t.timestamp("workflow_started_at", { useTz: true });
    t.timestamp("last_attempt_at", { useTz: true });
    t.timestamp("delivered_at", { useTz: true });
    t.timestamps(true, true);
    // A bot gets conversation_resolved/opened besides conversation_status_changed for the same event.
    t.unique(["event_id", "target_type", "target_id", "event_name"]);
    t.index(["webhook_id", "created_at"]);
  });
  await knex.raw("CREATE INDEX webhook_deliveries_unstarted ON webhook_deliveries (created_at) WHERE workflow_started_at IS NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("webhook_deliveries");
  await knex.schema.dropTableIfExists("webhooks");
}
