import type { Knex } from "knex";

/**
 * Rails' `string` columns on PostgreSQL are `varchar` without a limit, so Chatwoot accepts long names,
 * URLs and attributes; knex's `string()` defaults to varchar(255), which turned such input into a
 * database error. Lengths that matter are validated by the request schemas instead.
 *
 * Widening is binary-compatible (no table rewrite, indexes stay).
 */
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: { table_name: string; column_name: string }[] }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type = 'character varying' and character_maximum_length = 255
        and table_name not like 'knex_%'`,
  );
  for (const { table_name, column_name } of rows) {
    await knex.raw("alter table ?? alter column ?? type varchar", [table_name, column_name]);
  }
}

/** Knex requires a `down`; narrowing again could fail on, or truncate, rows written since, so it is kept. */
export async function down(): Promise<void> {}
