import type { Knex } from "knex";

/**
 * What becomes of a booking still scheduled or confirmed a grace period after its end (issue 33):
 * completed, no_show, or (NULL, the default) nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("scheduling_settings", (t) => {
    t.string("ended_booking_status");
    t.integer("ended_booking_grace_minutes").notNullable().defaultTo(60);
    t.check("ended_booking_status IN ('completed', 'no_show')", [], "scheduling_settings_ended_booking_status");
    t.check("ended_booking_grace_minutes BETWEEN 0 AND 10080", [], "scheduling_settings_ended_booking_grace_range");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("scheduling_settings", (t) => {
    t.dropChecks(["scheduling_settings_ended_booking_status", "scheduling_settings_ended_booking_grace_range"]);
    t.dropColumn("ended_booking_status");
    t.dropColumn("ended_booking_grace_minutes");
  });
}
