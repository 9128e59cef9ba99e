import type { Knex } from "knex";

/**
 * Chatwoot's notifications (a user's inbox of assignments, mentions and new messages, made from the
 * outbox's events) and each member's notification settings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("notifications", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.string("notification_type").notNullable();
    t.string("primary_actor_type").notNullable().defaultTo("Conversation");
    t.bigInteger("primary_actor_id").notNullable();
    t.string("secondary_actor_type");
    t.bigInteger("secondary_actor_id");
    // What the push shows of the conversation and message, as they were when it was made.
    t.jsonb("primary_actor_data").notNullable().defaultTo("{}");
    t.jsonb("secondary_actor_data");
    t.text("push_message_title").notNullable().defaultTo("");
    t.timestamp("read_at", { useTz: true });
    t.timestamp("snoozed_until", { useTz: true });
    t.timestamp("last_activity_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.jsonb("meta").notNullable().defaultTo("{}");
    // The outbox event it was made of: planning the event again makes no second notification.
    t.bigInteger("event_id").notNullable();
    t.timestamps(true, true);
    t.unique(["event_id", "user_id", "notification_type"]);
    t.index(["user_id", "account_id", "last_activity_at"]);
  });
  await knex.schema.createTable("notification_settings", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.jsonb("selected_email_flags")
      .notNullable()
      .defaultTo(JSON.stringify(["email_conversation_assignment"]));
    t.jsonb("selected_push_flags")
      .notNullable()
      .defaultTo(JSON.stringify(["push_conversation_assignment"]));
    t.timestamps(true, true);
    t.unique(["account_id", "user_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("notification_settings");
  await knex.schema.dropTable("notifications");
}
