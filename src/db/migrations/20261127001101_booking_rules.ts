import type { Knex } from "knex";

/**
 * Booking rules (issue 31): the account's minimum notice and default timezone, and on each
 * appointment what its idempotency key was first used with (so a retry with another body is
 * refused) and the request that last changed it (shown in its workflow's memo).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("scheduling_settings", (t) => {
    t.integer("minimum_notice_minutes").notNullable().defaultTo(0);
    // NULL: the fork's default zone (Asia/Almaty).
    t.string("timezone");
    t.check("minimum_notice_minutes BETWEEN 0 AND 525600", [], "scheduling_settings_minimum_notice_range");
  });
  await knex.schema.alterTable("scheduling_appointments", (t) => {
    t.string("idempotency_fingerprint", 64);
    t.string("last_request_id");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("scheduling_appointments", (t) => {
    t.dropColumn("idempotency_fingerprint");
    t.dropColumn("last_request_id");
  });
  await knex.schema.alterTable("scheduling_settings", (t) => {
    t.dropChecks(["scheduling_settings_minimum_notice_range"]);
    t.dropColumn("minimum_notice_minutes");
    t.dropColumn("timezone");
  });
}
