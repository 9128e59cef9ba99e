import type { Knex } from "knex";

/**
 * Chatwoot's campaigns, and each one-off campaign's deliveries: one row per contact it reached,
 * written with the message, so no contact is messaged twice whatever is retried or restarted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("campaigns", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.integer("display_id").notNullable();
    t.string("title").notNullable();
    t.text("description");
    t.text("message").notNullable();
    t.boolean("enabled").notNullable().defaultTo(true);
    t.string("campaign_type").notNullable();
    t.string("campaign_status").notNullable().defaultTo("active");
    t.timestamp("scheduled_at", { useTz: true });
    t.jsonb("audience").notNullable().defaultTo("[]");
    t.jsonb("trigger_rules").notNullable().defaultTo("{}");
    t.boolean("trigger_only_during_business_hours").notNullable().defaultTo(false);
    t.bigInteger("sender_id").references("users.id").onDelete("SET NULL");
    t.bigInteger("inbox_id").notNullable().references("inboxes.id").onDelete("CASCADE");
    t.timestamps(true, true);
    t.unique(["account_id", "display_id"]);
  });
  await knex.schema.createTable("campaign_deliveries", (t) => {
    t.bigIncrements("id");
    t.bigInteger("campaign_id").notNullable().references("campaigns.id").onDelete("CASCADE");
    t.bigInteger("contact_id").notNullable().references("contacts.id").onDelete("CASCADE");
    t.bigInteger("conversation_id");
    t.bigInteger("message_id");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["campaign_id", "contact_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("campaign_deliveries");
  await knex.schema.dropTable("campaigns");
}
