import type { Knex } from "knex";

/** Inboxes, contacts, conversations, messages, custom attribute definitions and audit logs. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("accounts", (t) => {
    // Per-account conversation numbers (Chatwoot's display_id), handed out under a row lock.
    t.integer("last_conversation_display_id").notNullable().defaultTo(0);
  });

  await knex.schema.createTable("channel_api", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("webhook_url", 2048);
    t.string("identifier").notNullable().unique();
    t.string("hmac_token").notNullable();
    t.boolean("hmac_mandatory").notNullable().defaultTo(false);
    t.string("secret").notNullable();
    t.jsonb("additional_attributes").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.index(["account_id"]);
  });

  await knex.schema.createTable("channel_web_widgets", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("website_url");
    t.string("widget_color").notNullable().defaultTo("#1f93ff");
    t.string("website_token").notNullable().unique();
    t.string("welcome_title");
    t.string("welcome_tagline");
    t.string("reply_time").notNullable().defaultTo("in_a_few_minutes");
    t.string("hmac_token").notNullable();
    t.boolean("hmac_mandatory").notNullable().defaultTo(false);
    t.boolean("pre_chat_form_enabled").notNullable().defaultTo(false);
    t.jsonb("pre_chat_form_options").notNullable().defaultTo("{}");
    t.boolean("continuity_via_email").notNullable().defaultTo(true);
    t.jsonb("selected_feature_flags").notNullable().defaultTo("{}");
    t.specificType("allowed_domains", "text");
    t.timestamps(true, true);
    t.index(["account_id"]);
  });

  await knex.schema.createTable("inboxes", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("name").notNullable();
    t.string("channel_type").notNullable();
    t.bigInteger("channel_id").notNullable();
    t.string("avatar_url", 2048);
    t.boolean("greeting_enabled").notNullable().defaultTo(false);
    t.text("greeting_message");
    t.boolean("working_hours_enabled").notNullable().defaultTo(false);
    t.jsonb("working_hours").notNullable().defaultTo("[]");
    t.text("out_of_office_message");
    t.string("timezone").notNullable().defaultTo("UTC");
    t.boolean("enable_email_collect").notNullable().defaultTo(true);
    t.boolean("csat_survey_enabled").notNullable().defaultTo(false);
    t.jsonb("csat_config").notNullable().defaultTo("{}");
    t.boolean("enable_auto_assignment").notNullable().defaultTo(true);
    t.jsonb("auto_assignment_config").notNullable().defaultTo("{}");
    t.boolean("allow_messages_after_resolved").notNullable().defaultTo(true);
    t.boolean("lock_to_single_conversation").notNullable().defaultTo(false);
    t.string("sender_name_type").notNullable().defaultTo("friendly");
    t.string("business_name");
    t.timestamps(true, true);
    t.index(["account_id"]);
    t.unique(["channel_type", "channel_id"]);
  });

  await knex.schema.createTable("inbox_members", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("inbox_id").notNullable().references("inboxes.id").onDelete("CASCADE");
    t.bigInteger("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.timestamps(true, true);
    t.unique(["inbox_id", "user_id"]);
    t.index(["account_id"]);
  });

  await knex.schema.createTable("agent_bot_inboxes", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("inbox_id").notNullable().unique().references("inboxes.id").onDelete("CASCADE");
    t.bigInteger("agent_bot_id").notNullable().references("agent_bots.id").onDelete("CASCADE");
    t.string("status").notNullable().defaultTo("active");
    t.timestamps(true, true);
    t.index(["account_id"]);
  });

  await knex.schema.createTable("contacts", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("name").notNullable().defaultTo("");
    t.string("email");
    t.string("phone_number");
    t.string("identifier");
    t.boolean("blocked").notNullable().defaultTo(false);
    t.string("avatar_url", 2048);
    t.string("contact_type").notNullable().defaultTo("visitor");
    t.string("location");
    t.string("country_code");
    t.jsonb("additional_attributes").notNullable().defaultTo("{}");
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamp("last_activity_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["account_id"]);
  });
  await knex.raw("CREATE UNIQUE INDEX contacts_account_email_unique ON contacts (account_id, lower(email)) WHERE email IS NOT NULL");
  await knex.raw("CREATE UNIQUE INDEX contacts_account_phone_unique ON contacts (account_id, phone_number) WHERE phone_number IS NOT NULL");
  await knex.raw("CREATE UNIQUE INDEX contacts_account_identifier_unique ON contacts (account_id, identifier) WHERE identifier IS NOT NULL");

  await knex.schema.createTable("contact_inboxes", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("contact_id").notNullable().references("contacts.id").onDelete("CASCADE");
    t.bigInteger("inbox_id").notNullable().references("inboxes.id").onDelete("CASCADE");
    t.string("source_id").notNullable();
    t.boolean("hmac_verified").notNullable().defaultTo(false);
    t.string("pubsub_token").unique();
    t.timestamps(true, true);
    t.unique(["inbox_id", "source_id"]);
    t.index(["contact_id"]);
    t.index(["account_id"]);
  });

  await knex.schema.createTable("notes", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("contact_id").notNullable().references("contacts.id").onDelete("CASCADE");
    t.bigInteger("user_id").references("users.id").onDelete("SET NULL");
    t.text("content").notNullable();
    t.timestamps(true, true);
    t.index(["account_id", "contact_id"]);
  });

  await knex.schema.createTable("conversations", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.integer("display_id").notNullable();
    t.uuid("uuid").notNullable().unique();
    t.bigInteger("inbox_id").notNullable().references("inboxes.id");
    t.bigInteger("contact_id").references("contacts.id");
    t.bigInteger("contact_inbox_id").references("contact_inboxes.id");
    t.string("status").notNullable().defaultTo("open");
    t.string("priority");
    t.bigInteger("assignee_id").references("users.id").onDelete("SET NULL");
    t.bigInteger("assignee_agent_bot_id").references("agent_bots.id").onDelete("SET NULL");
    t.bigInteger("team_id");
    t.bigInteger("campaign_id");
    t.boolean("muted").notNullable().defaultTo(false);
    t.specificType("labels", "text[]").notNullable().defaultTo("{}");
    t.jsonb("additional_attributes").notNullable().defaultTo("{}");
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamp("snoozed_until", { useTz: true });
    t.timestamp("waiting_since", { useTz: true });
    t.timestamp("first_reply_created_at", { useTz: true });
    t.timestamp("last_activity_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("agent_last_seen_at", { useTz: true });
    t.timestamp("assignee_last_seen_at", { useTz: true });
    t.timestamp("contact_last_seen_at", { useTz: true });
    t.timestamps(true, true);
    t.unique(["account_id", "display_id"]);
    t.index(["account_id", "status", "last_activity_at"]);
    t.index(["contact_id"]);
    t.index(["inbox_id"]);
  });

  await knex.schema.createTable("messages", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("inbox_id").notNullable().references("inboxes.id");
    t.bigInteger("conversation_id").notNullable().references("conversations.id").onDelete("CASCADE");
    t.text("content");
    // Chatwoot's integer enum: incoming 0, outgoing 1, activity 2, template 3.
    t.smallint("message_type").notNullable();
    t.string("content_type").notNullable().defaultTo("text");
    t.jsonb("content_attributes").notNullable().defaultTo("{}");
    t.boolean("private").notNullable().defaultTo(false);
    t.string("status").notNullable().defaultTo("sent");
    t.string("source_id");
    t.string("sender_type");
    t.bigInteger("sender_id");
    t.jsonb("external_source_ids").notNullable().defaultTo("{}");
    t.jsonb("additional_attributes").notNullable().defaultTo("{}");
    t.text("processed_message_content");
    t.jsonb("sentiment").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.index(["conversation_id", "id"]);
    t.index(["account_id"]);
    t.index(["sender_type", "sender_id"]);
  });

  await knex.schema.createTable("custom_attribute_definitions", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("attribute_display_name").notNullable();
    t.string("attribute_key").notNullable();
    t.smallint("attribute_display_type").notNullable().defaultTo(0);
    t.smallint("attribute_model").notNullable().defaultTo(0);
    t.text("attribute_description");
    t.jsonb("attribute_values").notNullable().defaultTo("[]");
    t.text("regex_pattern");
    t.text("regex_cue");
    t.integer("default_value");
    t.timestamps(true, true);
    t.unique(["account_id", "attribute_key", "attribute_model"]);
  });

  await knex.schema.createTable("audit_logs", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("auditable_type").notNullable();
    t.bigInteger("auditable_id");
    t.string("associated_type");
    t.bigInteger("associated_id");
    t.bigInteger("user_id");
    t.string("user_type");
    t.string("username");
    t.string("action").notNullable();
    t.jsonb("audited_changes").notNullable().defaultTo("{}");
    t.integer("version").notNullable().defaultTo(1);
    t.text("comment");
    t.string("request_uuid");
    t.string("remote_address");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["account_id", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "audit_logs",
    "custom_attribute_definitions",
    "messages",
    "conversations",
    "notes",
    "contact_inboxes",
    "contacts",
    "agent_bot_inboxes",
    "inbox_members",
    "inboxes",
    "channel_web_widgets",
    "channel_api",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable("accounts", (t) => t.dropColumn("last_conversation_display_id"));
}
