import type { Knex } from "knex";

/**
 * Conversation timers move from a workflow per conversation to one sweep per installation, which
 * reads the deadlines from here: 10,000 deadlines in a minute cost a workflow task each before, and
 * one indexed query per sweep now. Every pending deadline is planned again by the first worker start
 * after this migration (timers_adopted_at is cleared for it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("conversations", (t) => {
    /** When the conversation's timer fires (auto-resolve, or reopen after a snooze); null when none waits. */
    t.timestamp("timer_due_at", { useTz: true });
  });
  await knex.raw("CREATE INDEX conversations_timer_due_at ON conversations (timer_due_at) WHERE timer_due_at IS NOT NULL");
  await knex.schema.alterTable("installation", (t) => {
    /** When the sweep wakes next: a re-plan that brings a deadline before it wakes the sweep. */
    t.timestamp("timers_wake_at", { useTz: true });
  });
  await knex("installation").update({ timers_adopted_at: null });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("installation", (t) => {
    t.dropColumn("timers_wake_at");
  });
  await knex.raw("DROP INDEX IF EXISTS conversations_timer_due_at");
  await knex.schema.alterTable("conversations", (t) => {
    t.dropColumn("timer_due_at");
  });
}
