import type { Knex } from "knex";

/**
 * Booking: the appointment's timed life (prepayment hold, when its start was last set, why it was
 * cancelled), the messages its workflow posted (one row each, so none is posted twice), the
 * account's scheduling settings (reminder offsets, default hold), services that require a
 * prepayment, and the payout run that paid an expense.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("scheduling_appointments", (t) => {
    // While set and nothing is paid, the slot is held for a prepayment until then; past it, the booking is cancelled.
    t.timestamp("hold_expires_at", { useTz: true });
    // When starts_at took its current value: reminders whose time had already passed then are not sent.
    t.timestamp("start_set_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string("cancellation_reason");
  });

  await knex.schema.alterTable("scheduling_services", (t) => {
    t.boolean("prepayment_required").notNullable().defaultTo(false);
  });

  await knex.schema.alterTable("scheduling_expenses", (t) => {
    t.string("payout_id");
    t.index(["payout_id"]);
  });

  await knex.schema.createTable("scheduling_settings", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().unique().references("accounts.id");
    t.specificType("reminder_offsets_minutes", "integer[]").notNullable().defaultTo("{1440,120}");
    t.integer("prepayment_hold_minutes").notNullable().defaultTo(30);
    t.timestamps(true, true);
    t.check("prepayment_hold_minutes BETWEEN 1 AND 10080");
  });

  await knex.schema.createTable("scheduling_appointment_notices", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("appointment_id").notNullable().references("scheduling_appointments.id").onDelete("CASCADE");
    t.string("kind").notNullable();
    // What the notice announced, so it is announced once: "2:confirmation:<start>", "reminder:<offset>:<start>"...
    t.string("key").notNullable();
    t.bigInteger("message_id").references("messages.id").onDelete("SET NULL");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["appointment_id", "key"]);
    t.index(["account_id"]);
    t.check("kind IN ('confirmation', 'rescheduled', 'reminder', 'cancelled')");
  });

  // The fork enables scheduling_finance wherever scheduling is on (config/features.yml).
  await knex.raw(
    "UPDATE accounts SET features = array_append(features, 'scheduling_finance') WHERE 'scheduling' = ANY(features) AND NOT 'scheduling_finance' = ANY(features)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("scheduling_appointment_notices");
  await knex.schema.dropTableIfExists("scheduling_settings");
  await knex.schema.alterTable("scheduling_expenses", (t) => {
    t.dropIndex(["payout_id"]);
    t.dropColumn("payout_id");
  });
  await knex.schema.alterTable("scheduling_services", (t) => t.dropColumn("prepayment_required"));
  await knex.schema.alterTable("scheduling_appointments", (t) => {
    t.dropColumn("hold_expires_at");
    t.dropColumn("start_set_at");
    t.dropColumn("cancellation_reason");
  });
}
