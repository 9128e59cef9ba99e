import type { Knex } from "knex";

/**
 * Slots offered in a conversation (issue 33): each offer is an input_select message whose items are
 * free slots (or, for a confirmation request, confirm / cancel / another time), open until it is
 * answered or expires. The account may ask for a confirmation this many minutes before a booking.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("scheduling_offers", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("conversation_id").notNullable().references("conversations.id").onDelete("CASCADE");
    t.bigInteger("contact_id").references("contacts.id").onDelete("SET NULL");
    t.bigInteger("message_id").references("messages.id").onDelete("SET NULL");
    // slots: choose a time; confirmation: confirm, cancel or ask for another time.
    t.string("kind").notNullable().defaultTo("slots");
    t.string("status").notNullable().defaultTo("open");
    // What a fresh offer searches again: service_id, resource_ids, count.
    t.jsonb("request").notNullable().defaultTo("{}");
    // [{token, title, resource_id, starts_at, ends_at}] or [{token, title, answer}].
    t.jsonb("slots").notNullable().defaultTo("[]");
    // The booking made from the offer; for a confirmation request, or an offer of another time, the one it is about.
    t.bigInteger("appointment_id").references("scheduling_appointments.id").onDelete("SET NULL");
    t.bigInteger("replaced_by_id").references("scheduling_offers.id").onDelete("SET NULL");
    t.string("chosen_token");
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.string("created_by_type");
    t.bigInteger("created_by_id");
    t.timestamps(true, true);
    t.index(["conversation_id", "status"]);
    t.index(["message_id"]);
    t.index(["account_id"]);
    t.check("kind IN ('slots', 'confirmation')", [], "scheduling_offers_kind");
    t.check("status IN ('open', 'booked', 'answered', 'expired', 'replaced')", [], "scheduling_offers_status");
  });
  await knex.schema.alterTable("scheduling_settings", (t) => {
    // NULL: no confirmation requests.
    t.integer("confirmation_request_minutes_before");
    t.check("confirmation_request_minutes_before BETWEEN 1 AND 43200", [], "scheduling_settings_confirmation_request_range");
  });
  await knex.raw("ALTER TABLE scheduling_appointment_notices DROP CONSTRAINT scheduling_appointment_notices_kind_check");
  await knex.raw(
    "ALTER TABLE scheduling_appointment_notices ADD CONSTRAINT scheduling_appointment_notices_kind_check CHECK (kind IN ('confirmation', 'rescheduled', 'reminder', 'cancelled', 'confirmation_request'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex("scheduling_appointment_notices").where("kind", "confirmation_request").delete();
  await knex.raw("ALTER TABLE scheduling_appointment_notices DROP CONSTRAINT scheduling_appointment_notices_kind_check");
  await knex.raw(
    "ALTER TABLE scheduling_appointment_notices ADD CONSTRAINT scheduling_appointment_notices_kind_check CHECK (kind IN ('confirmation', 'rescheduled', 'reminder', 'cancelled'))",
  );
  await knex.schema.alterTable("scheduling_settings", (t) => {
    t.dropChecks(["scheduling_settings_confirmation_request_range"]);
    t.dropColumn("confirmation_request_minutes_before");
  });
  await knex.schema.dropTableIfExists("scheduling_offers");
}
