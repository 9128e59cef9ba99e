import type { Knex } from "knex";
import type { Sql } from "../../db/sql";

/**
 * The rows of a report query, sent as it is each time (not through a Batch, which would name it:
 * a report's plan should follow the range it is given, not be the generic plan of every range).
 */
export async function rows<T>(knex: Knex, query: Sql): Promise<T[]> {
  const result = await query.raw(knex);
  return result.rows as T[];
}
