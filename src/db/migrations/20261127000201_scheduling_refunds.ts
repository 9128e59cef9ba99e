import type { Knex } from "knex";

/**
 * Money that stays on the record (docs/scheduling-money.md): refunds are journal entries of their
 * own (kind `refund`, with a reason) and the appointment counts what went back (`refunded_amount`,
 * never more than was received); its payment status may say so. The expense journal holds a
 * booking's entries per resource: the compensation of each resource that earned it, and the
 * adjustments (negative for a claw-back) when a booking whose expense was paid out moves away.
 */
const PAYMENT_KINDS = ["prepaid", "payment", "adjustment", "refund"];
const PAYMENT_STATUSES = ["awaiting_payment", "prepaid", "paid", "cancelled", "refunded", "partially_refunded"];
const EXPENSE_KINDS = ["compensation", "adjustment"];

const oneOf = (column: string, values: string[]) => `${column} IN (${values.map((v) => `'${v}'`).join(", ")})`;

/** Drops the table's unnamed check constraints that mention the column (the first migration let PostgreSQL name them). */
async function dropChecksOn(knex: Knex, table: string, column: string) {
  const { rows } = await knex.raw<{ rows: { conname: string }[] }>(
    "SELECT conname FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'c' AND pg_get_constraintdef(oid) ~ ?",
    [table, `\\m${column}\\M`],
  );
  for (const { conname } of rows) await knex.raw("ALTER TABLE ?? DROP CONSTRAINT ??", [table, conname]);
}

export async function up(knex: Knex): Promise<void> {
  await dropChecksOn(knex, "scheduling_payments", "payment_kind");
  await knex.schema.alterTable("scheduling_payments", (t) => {
    t.text("reason");
    t.check(oneOf("payment_kind", PAYMENT_KINDS), {}, "scheduling_payments_payment_kind_check");
  });

  await dropChecksOn(knex, "scheduling_appointments", "payment_status");
  await dropChecksOn(knex, "scheduling_appointments", "service_amount");
  await knex.schema.alterTable("scheduling_appointments", (t) => {
    t.integer("refunded_amount").notNullable().defaultTo(0);
    t.check("service_amount >= 0 AND prepaid_amount >= 0 AND settlement_amount >= 0", {}, "scheduling_appointments_amounts_check");
    // What was refunded no longer counts against the price (a re-priced booking refunds the difference).
    t.check("service_amount = 0 OR prepaid_amount + settlement_amount - refunded_amount <= service_amount", {}, "scheduling_appointments_received_check");
    t.check(oneOf("payment_status", PAYMENT_STATUSES), {}, "scheduling_appointments_payment_status_check");
    // Two refunds racing can never give back more than came in, whatever the application does.
    t.check("refunded_amount >= 0 AND refunded_amount <= prepaid_amount + settlement_amount", {}, "scheduling_appointments_refunded_amount_check");
  });

  await dropChecksOn(knex, "scheduling_expenses", "amount");
  await knex.schema.alterTable("scheduling_expenses", (t) => {
    t.dropUnique(["appointment_id"]);
    t.string("kind").notNullable().defaultTo("compensation");
    t.index(["appointment_id"]);
    t.check(oneOf("kind", EXPENSE_KINDS), {}, "scheduling_expenses_kind_check");
    t.check("(kind = 'compensation' AND amount >= 0) OR (kind = 'adjustment' AND amount <> 0)", {}, "scheduling_expenses_amount_check");
  });
  // One compensation per resource and booking: the one of the resource it is with is "the" expense.
  await knex.raw("CREATE UNIQUE INDEX scheduling_expenses_one_compensation ON scheduling_expenses (appointment_id, resource_id) WHERE kind = 'compensation'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX scheduling_expenses_one_compensation");
  await knex("scheduling_expenses").where("kind", "adjustment").delete();
  await knex.schema.alterTable("scheduling_expenses", (t) => {
    t.dropChecks(["scheduling_expenses_kind_check", "scheduling_expenses_amount_check"]);
    t.dropIndex(["appointment_id"]);
    t.dropColumn("kind");
    t.unique(["appointment_id"]);
    t.check("amount >= 0");
  });
  await knex.schema.alterTable("scheduling_appointments", (t) => {
    t.dropChecks([
      "scheduling_appointments_payment_status_check",
      "scheduling_appointments_refunded_amount_check",
      "scheduling_appointments_amounts_check",
      "scheduling_appointments_received_check",
    ]);
    t.dropColumn("refunded_amount");
    t.check(oneOf("payment_status", PAYMENT_STATUSES.slice(0, 4)));
    t.check("service_amount >= 0 AND prepaid_amount >= 0 AND settlement_amount >= 0");
    t.check("service_amount = 0 OR prepaid_amount + settlement_amount <= service_amount");
  });
  await knex("scheduling_payments").where("payment_kind", "refund").delete();
  await knex.schema.alterTable("scheduling_payments", (t) => {
    t.dropChecks(["scheduling_payments_payment_kind_check"]);
    t.dropColumn("reason");
    t.check(oneOf("payment_kind", PAYMENT_KINDS.slice(0, 3)));
  });
}
