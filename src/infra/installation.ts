import type { Knex } from "knex";

/**
 * The database's identity, made once by its first migration. Workflow ids and the task queue carry
 * it, so several databases (a new one, a restored one, staging beside production) can share one
 * Temporal namespace without meeting each other's workflows.
 */
export async function loadInstallationId(db: Knex): Promise<string> {
  const hasTable = await db.schema.hasTable("installation");
  const row = hasTable ? await db("installation").first("id") : undefined;
  if (!row) throw new Error("The database has no installation identity yet: run the migrations first (npm run migrate)");
  return row.id;
}
