import pg from "pg";
import { connectDatabase, migrate } from "../../src/db";

export interface OwnDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A migrated database for one test file, beside the suite's shared one: for tests whose relay must
 * see only their own events (every other file's relay drains the shared database).
 */
export async function createOwnDatabase(suffix: string): Promise<OwnDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error("DATABASE_URL is not set: run the tests with npm test");
  const name = `${new URL(adminUrl).pathname.slice(1)}_${suffix}`;
  await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const knex = connectDatabase(url.toString());
  await migrate(knex);
  await knex.destroy();
  return { url: url.toString(), drop: () => admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
