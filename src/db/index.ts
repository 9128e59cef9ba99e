import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { Model } from "objection";
import pg from "pg";
import { PgClient } from "./pgClient";
import { timestamptzParser } from "./timestamps";
import type { TripOptions } from "./trip";

// Ids are bigserial; every id this service hands out fits in a JS number, and clients expect numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, timestamptzParser(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)));

export type Database = Knex;

export function connectDatabase(connectionString: string, pool = { min: 0, max: 10 }, options: TripOptions = {}): Database {
  const knex = knexFactory({ client: PgClient, connection: connectionString, pool, ...options } as Knex.Config);
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
