import type { Knex } from "knex";

/**
 * Contact imports (Chatwoot's data_imports) and exports, each run by a workflow. An import reads its
 * stored CSV in chunks: `next_byte`/`next_row` say where the next chunk starts and move in the same
 * transaction as the chunk's contacts, so a chunk is written once whatever is retried. Its rejected
 * rows wait in data_import_rejections for the failed-records CSV; data_import_keys holds the emails,
 * phone numbers and identifiers the file has used so far, to reject a row repeating an earlier one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("data_imports", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("user_id").references("users.id").onDelete("SET NULL");
    t.string("data_type").notNullable().defaultTo("contacts");
    t.string("status").notNullable().defaultTo("pending");
    t.string("file_key").notNullable();
    t.string("file_name").notNullable();
    // The header row, once read: later chunks start mid-file.
    t.jsonb("columns");
    t.bigInteger("next_byte").notNullable().defaultTo(0);
    t.integer("next_row").notNullable().defaultTo(0);
    // Set when the last chunk has been read: the rows of the file.
    t.integer("total_records");
    t.integer("processed_records").notNullable().defaultTo(0);
    t.integer("rejected_records").notNullable().defaultTo(0);
    t.string("failed_records_key");
    t.text("processing_errors");
    t.timestamp("completed_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["account_id", "id"]);
  });
  await knex.schema.createTable("data_import_rejections", (t) => {
    t.bigInteger("data_import_id").notNullable().references("data_imports.id").onDelete("CASCADE");
    t.integer("row_number").notNullable();
    t.jsonb("values").notNullable();
    t.text("errors").notNullable();
    t.primary(["data_import_id", "row_number"]);
  });
  await knex.schema.createTable("data_import_keys", (t) => {
    t.bigInteger("data_import_id").notNullable().references("data_imports.id").onDelete("CASCADE");
    t.string("kind", 16).notNullable();
    t.string("value").notNullable();
    t.primary(["data_import_id", "kind", "value"]);
  });
  await knex.schema.createTable("data_exports", (t) => {
    t.bigIncrements("id");
    t.bigInteger("account_id").notNullable().references("accounts.id").onDelete("CASCADE");
    t.bigInteger("user_id").references("users.id").onDelete("SET NULL");
    t.string("data_type").notNullable().defaultTo("contacts");
    t.string("status").notNullable().defaultTo("pending");
    t.jsonb("column_names").notNullable();
    t.jsonb("filter");
    t.string("label");
    t.integer("total_records");
    t.integer("processed_records").notNullable().defaultTo(0);
    t.string("file_key");
    t.text("processing_errors");
    t.timestamp("completed_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["account_id", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("data_exports");
  await knex.schema.dropTable("data_import_keys");
  await knex.schema.dropTable("data_import_rejections");
  await knex.schema.dropTable("data_imports");
}
