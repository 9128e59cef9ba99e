import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { Model } from "objection";
import pg from "pg";
import { nameStatements } from "./batch";
import { timestamptzParser } from "./timestamps";

// Ids are bigserial; every id this service hands out fits in a JS number, and clients expect numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, timestamptzParser(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)));

export type Database = Knex;

export interface DatabaseOptions {
  /** false: no statement is named (DATABASE_PREPARED_STATEMENTS=off). */
  preparedStatements?: boolean;
}

/** knex's config for the database (pg's pipeline mode stays off: see src/db/oneRoundTrip.ts). */
export function databaseConfig(connectionString: string, pool = { min: 0, max: 10 }): Knex.Config {
  return { client: "pg", connection: connectionString, pool };
}

export function connectDatabase(connectionString: string, pool = { min: 0, max: 10 }, options: DatabaseOptions = {}): Database {
  if (options.preparedStatements !== undefined) nameStatements(options.preparedStatements);
  const knex = knexFactory(databaseConfig(connectionString, pool));
  Model.knex(knex);
  return knex;
}

const migrationConfig: Knex.MigratorConfig = {
  directory: path.join(__dirname, "migrations"),
  loadExtensions: [".ts", ".js"],
};

export async function migrate(knex: Database): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}

/** True when the database answers a trivial query; used by the health check. */
export async function databaseIsReachable(knex: Database): Promise<boolean> {
  try {
    await knex.raw("select 1");
    return true;
  } catch {
    return false;
  }
}
