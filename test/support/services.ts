/**
 * What the test suite and the benchmarks need, brought up for the length of one run:
 * - PostgreSQL: DATABASE_URL's server, else 127.0.0.1:5432 (user postgres), else an embedded one.
 *   The suite gets a fresh database, convo_sched_test, migrated once here.
 * - Temporal: TEMPORAL_ADDRESS, else a dev server started here (its state in a temporary file; the
 *   benchmarks keep it in memory).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundleWorkflowCode, DefaultLogger } from "@temporalio/worker";
import pg from "pg";
import { DATA_DIR } from "../../src/config";
import { connectDatabase, migrate } from "../../src/db";
import { startEmbeddedPostgres } from "../../src/infra/embeddedPostgres";
import { startTemporalDevServer } from "../../src/infra/temporalDevServer";
import { WORKFLOWS_PATH } from "../../src/temporal/worker";

// Overridable so several checkouts (or people) can run the suite on one server at once.
const TEST_DATABASE = process.env.TEST_DATABASE ?? "convo_sched_test";

async function recreateDatabase(serverUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEST_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEST_DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${TEST_DATABASE}`;
  return url.toString();
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export interface TestServices {
  databaseUrl: string;
  temporalAddress: string;
  workflowBundlePath: string;
}

/** The environment variables test/support/harness.ts reads. */
export function servicesEnv(services: TestServices): Record<string, string> {
  return {
    DATABASE_URL: services.databaseUrl,
    TEMPORAL_ADDRESS: services.temporalAddress,
    WORKFLOW_BUNDLE_PATH: services.workflowBundlePath,
  };
}

/** Starts (or finds) PostgreSQL and Temporal, runs fn, then stops whatever it started. */
export async function withTestServices<T>(fn: (services: TestServices) => Promise<T>, { temporalInMemory = false } = {}): Promise<T> {
  const stops: (() => Promise<void>)[] = [];
  try {
    let serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    if (!process.env.DATABASE_URL && !(await reachable(serverUrl))) {
      console.log("No PostgreSQL on 127.0.0.1:5432: starting an embedded one.");
      const db = await startEmbeddedPostgres(path.join(DATA_DIR, "test"), 54330, "postgres");
      stops.push(db.stop);
      serverUrl = db.url;
    }
    const databaseUrl = await recreateDatabase(serverUrl);
    const knex = connectDatabase(databaseUrl);
    await migrate(knex);
    await knex.destroy();

    let temporalAddress = process.env.TEMPORAL_ADDRESS;
    if (!temporalAddress) {
      // On a file rather than in memory: the dev server's in-memory SQLite is gone once its pool has
      // closed every connection (after a query cancelled under load, say), and the run's namespace with
      // it. The benchmarks keep it in memory, as all their figures were taken.
      const temporalDir = temporalInMemory ? undefined : mkdtempSync(path.join(tmpdir(), "convo-sched-temporal-"));
      const temporal = await startTemporalDevServer({
        port: Number(process.env.TEST_TEMPORAL_PORT ?? 7243),
        namespace: "default",
        ...(temporalDir ? { dbFile: path.join(temporalDir, "temporal.db") } : {}),
      });
      if (temporalDir) stops.push(async () => rmSync(temporalDir, { recursive: true, force: true }));
      stops.push(temporal.stop);
      temporalAddress = temporal.address;
    }

    // One workflow bundle for every worker of the run, instead of one webpack run per test file.
    const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
    const workflowBundlePath = path.join(mkdtempSync(path.join(tmpdir(), "convo-sched-")), "workflow-bundle.js");
    writeFileSync(workflowBundlePath, code);

    return await fn({ databaseUrl, temporalAddress, workflowBundlePath });
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
  }
}

const quietLogger = new DefaultLogger("WARN");
