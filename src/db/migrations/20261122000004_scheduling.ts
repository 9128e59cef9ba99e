import type { Knex } from "knex";

/**
 * The scheduling area: resources and their weekly rules, exceptions (holidays, overrides, time off),
 * services with per-resource prices, and the booking side (appointments, payments, expenses).
 * Enumerations and minute ranges are checked here too, so no writer can store what the API refuses.
 */
const APPOINTMENT_STATUSES = ["scheduled", "confirmed", "completed", "cancelled", "no_show"];
const APPOINTMENT_TYPES = ["primary", "secondary", "other"];
const PAYMENT_STATUSES = ["awaiting_payment", "prepaid", "paid", "cancelled"];
const PAYMENT_METHODS = ["kaspi_transfer", "kaspi_qr", "cash", "bank_transfer", "card", "other"];
const PAYMENT_KINDS = ["prepaid", "payment", "adjustment"];
const EXPENSE_STATUSES = ["unpaid", "paid"];
const COMPENSATION_TYPES = ["percent", "fixed"];

const oneOf = (column: string, values: string[], nullable = false) =>
  `${nullable ? `${column} IS NULL OR ` : ""}${column} IN (${values.map((v) => `'${v}'`).join(", ")})`;

/** Start/end minutes of a local day, as the fork's MinuteRangeValidatable. */
const MINUTE_RANGE = "start_minute BETWEEN 0 AND 1439 AND end_minute BETWEEN 1 AND 1440 AND end_minute > start_minute";
const COMPENSATION = `${oneOf("compensation_type", COMPENSATION_TYPES)} AND compensation_value >= 0 AND (compensation_type <> 'percent' OR compensation_value <= 100)`;

function weeklyRule(t: Knex.CreateTableBuilder) {
  t.bigIncrements("id");
  t.bigInteger("account_id").notNullable().references("accounts.id");
  t.bigInteger("resource_id").notNullable().references("scheduling_resources.id").onDelete("CASCADE");
  t.smallint("weekday").notNullable();
  t.smallint("start_minute").notNullable();
  t.smallint("end_minute").notNullable();
  t.boolean("active").notNullable().defaultTo(true);
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE EXTENSION IF NOT EXISTS btree_gist");

  await knex.schema.createTable("scheduling_resources", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("user_id").references("users.id").onDelete("SET NULL");
    t.string("name").notNullable();
    t.string("specialty");
    t.string("timezone").notNullable().defaultTo("Asia/Almaty");
    t.integer("slot_duration_min").notNullable().defaultTo(30);
    t.string("compensation_type").notNullable().defaultTo("percent");
    t.integer("compensation_value").notNullable().defaultTo(0);
    t.boolean("active").notNullable().defaultTo(true);
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.index(["account_id"]);
    t.check("slot_duration_min BETWEEN 5 AND 720");
    t.check(COMPENSATION);
  });

  await knex.schema.createTable("scheduling_work_rules", (t) => {
    weeklyRule(t);
    t.timestamps(true, true);
    t.unique(["resource_id", "weekday", "start_minute", "end_minute"]);
    t.index(["account_id"]);
    t.check("weekday BETWEEN 0 AND 6");
    t.check(MINUTE_RANGE);
  });

  await knex.schema.createTable("scheduling_break_rules", (t) => {
    weeklyRule(t);
    t.string("title");
    t.timestamps(true, true);
    t.unique(["resource_id", "weekday", "start_minute", "end_minute"]);
    t.index(["account_id"]);
    t.check("weekday BETWEEN 0 AND 6");
    t.check(MINUTE_RANGE);
  });

  await knex.schema.createTable("scheduling_holidays", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.date("date").notNullable();
    t.string("title").notNullable();
    t.boolean("recurring_yearly").notNullable().defaultTo(false);
    t.boolean("working_day_override").notNullable().defaultTo(false);
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.index(["account_id", "date"]);
  });

  await knex.schema.createTable("scheduling_workday_overrides", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("resource_id").notNullable().references("scheduling_resources.id").onDelete("CASCADE");
    t.date("date").notNullable();
    t.smallint("start_minute").notNullable();
    t.smallint("end_minute").notNullable();
    t.smallint("break_start_minute");
    t.smallint("break_end_minute");
    t.string("break_title");
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.unique(["resource_id", "date"]);
    t.index(["account_id"]);
    t.check(MINUTE_RANGE);
    t.check(
      "(break_start_minute IS NULL AND break_end_minute IS NULL) OR " +
        "(break_start_minute >= start_minute AND break_end_minute <= end_minute AND break_end_minute > break_start_minute)",
    );
  });

  await knex.schema.createTable("scheduling_time_offs", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    // NULL: the whole account is off.
    t.bigInteger("resource_id").references("scheduling_resources.id").onDelete("CASCADE");
    t.string("kind").notNullable();
    t.timestamp("starts_at", { useTz: true }).notNullable();
    t.timestamp("ends_at", { useTz: true }).notNullable();
    t.string("title");
    t.text("notes");
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.index(["account_id", "starts_at"]);
    t.index(["resource_id"]);
    t.check("ends_at > starts_at");
  });

  await knex.schema.createTable("scheduling_services", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.string("name").notNullable();
    t.string("category");
    t.string("direction");
    t.string("service_type");
    t.text("description");
    t.integer("base_price").notNullable().defaultTo(0);
    t.integer("duration_min").notNullable().defaultTo(30);
    t.boolean("active").notNullable().defaultTo(true);
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamps(true, true);
    t.index(["account_id"]);
    t.check("base_price >= 0");
    t.check("duration_min BETWEEN 5 AND 720");
  });

  await knex.schema.createTable("scheduling_service_prices", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("service_id").notNullable().references("scheduling_services.id").onDelete("CASCADE");
    t.bigInteger("resource_id").notNullable().references("scheduling_resources.id").onDelete("CASCADE");
    t.integer("price").notNullable();
    t.string("compensation_type").notNullable().defaultTo("percent");
    t.integer("compensation_value").notNullable().defaultTo(0);
    t.boolean("active").notNullable().defaultTo(true);
    t.timestamps(true, true);
    t.unique(["service_id", "resource_id"]);
    t.index(["account_id"]);
    t.index(["resource_id"]);
    t.check("price >= 0 AND (NOT active OR price > 0)");
    t.check(COMPENSATION);
  });

  await knex.schema.createTable("scheduling_appointments", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    // Restrict: a resource with bookings is deactivated, not deleted.
    t.bigInteger("resource_id").notNullable().references("scheduling_resources.id");
    t.bigInteger("contact_id").references("contacts.id").onDelete("SET NULL");
    t.bigInteger("service_id").references("scheduling_services.id").onDelete("SET NULL");
    // No companies table yet: a contact's company_id is an opaque number.
    t.bigInteger("company_id");
    t.bigInteger("conversation_id").references("conversations.id").onDelete("SET NULL");
    t.bigInteger("created_by_id").references("users.id").onDelete("SET NULL");
    t.timestamp("starts_at", { useTz: true }).notNullable();
    t.timestamp("ends_at", { useTz: true }).notNullable();
    t.integer("duration_min").notNullable();
    t.string("status").notNullable().defaultTo("scheduled");
    t.string("appointment_type").notNullable().defaultTo("primary");
    t.string("source").notNullable().defaultTo("manual");
    t.string("client_name").notNullable();
    t.string("client_phone");
    t.string("client_identifier");
    t.date("client_birth_date");
    t.string("client_gender");
    t.string("payment_status").notNullable().defaultTo("awaiting_payment");
    t.integer("service_amount").notNullable().defaultTo(0);
    t.integer("prepaid_amount").notNullable().defaultTo(0);
    t.integer("settlement_amount").notNullable().defaultTo(0);
    t.string("prepaid_payment_method");
    t.string("settlement_payment_method");
    // What the resource earns, copied at booking time so later price changes do not rewrite history.
    t.string("compensation_type_snapshot");
    t.integer("compensation_value_snapshot");
    t.string("external_ref");
    t.string("idempotency_key");
    t.text("notes");
    t.jsonb("custom_attributes").notNullable().defaultTo("{}");
    t.timestamp("cancelled_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["account_id", "starts_at"]);
    t.index(["resource_id", "starts_at"]);
    t.index(["contact_id"]);
    t.check("ends_at > starts_at");
    t.check("duration_min BETWEEN 5 AND 720");
    t.check(oneOf("status", APPOINTMENT_STATUSES));
    t.check(oneOf("appointment_type", APPOINTMENT_TYPES));
    t.check(oneOf("payment_status", PAYMENT_STATUSES));
    t.check(oneOf("prepaid_payment_method", PAYMENT_METHODS, true));
    t.check(oneOf("settlement_payment_method", PAYMENT_METHODS, true));
    t.check(oneOf("compensation_type_snapshot", COMPENSATION_TYPES, true));
    t.check("service_amount >= 0 AND prepaid_amount >= 0 AND settlement_amount >= 0");
    t.check("service_amount = 0 OR prepaid_amount + settlement_amount <= service_amount");
  });
  await knex.raw(
    "CREATE UNIQUE INDEX scheduling_appointments_idempotency_key_unique ON scheduling_appointments (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL",
  );
  await knex.raw(
    "CREATE UNIQUE INDEX scheduling_appointments_external_ref_unique ON scheduling_appointments (account_id, external_ref) WHERE external_ref IS NOT NULL",
  );
  // The fork only checks in the application; here two live bookings of one resource cannot overlap, whatever races.
  await knex.raw(`
    ALTER TABLE scheduling_appointments ADD CONSTRAINT scheduling_appointments_no_overlap
    EXCLUDE USING gist (resource_id WITH =, tstzrange(starts_at, ends_at, '[)') WITH &&)
    WHERE (status <> 'cancelled')`);

  await knex.schema.createTable("scheduling_payments", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("appointment_id").notNullable().references("scheduling_appointments.id").onDelete("CASCADE");
    t.bigInteger("recorded_by_id").references("users.id").onDelete("SET NULL");
    t.integer("amount").notNullable();
    t.string("payment_method").notNullable();
    t.string("payment_kind").notNullable();
    t.timestamps(true, true);
    t.index(["account_id", "created_at"]);
    t.index(["appointment_id"]);
    t.check("amount > 0");
    t.check(oneOf("payment_method", PAYMENT_METHODS));
    t.check(oneOf("payment_kind", PAYMENT_KINDS));
  });
  // The prepaid and adjustment rows mirror the appointment's amounts: at most one of each.
  await knex.raw(
    "CREATE UNIQUE INDEX scheduling_payments_one_mirror_per_kind ON scheduling_payments (appointment_id, payment_kind) WHERE payment_kind IN ('prepaid', 'adjustment')",
  );

  await knex.schema.createTable("scheduling_expenses", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id");
    t.bigInteger("appointment_id").notNullable().unique().references("scheduling_appointments.id").onDelete("CASCADE");
    t.bigInteger("resource_id").notNullable().references("scheduling_resources.id");
    t.integer("amount").notNullable();
    t.string("status").notNullable().defaultTo("unpaid");
    t.timestamp("paid_at", { useTz: true });
    t.bigInteger("paid_by_id").references("users.id").onDelete("SET NULL");
    t.timestamps(true, true);
    t.index(["account_id", "status"]);
    t.index(["resource_id"]);
    t.check("amount >= 0");
    t.check(oneOf("status", EXPENSE_STATUSES));
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "scheduling_expenses",
    "scheduling_payments",
    "scheduling_appointments",
    "scheduling_service_prices",
    "scheduling_services",
    "scheduling_time_offs",
    "scheduling_workday_overrides",
    "scheduling_holidays",
    "scheduling_break_rules",
    "scheduling_work_rules",
    "scheduling_resources",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
