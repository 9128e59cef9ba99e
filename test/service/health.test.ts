import type { AddressInfo } from "node:net";
import { Client, Connection } from "@temporalio/client";
import test from "ava";
import knexFactory from "knex";
import { createApp } from "../../src/app";
import type { AppDeps } from "../../src/deps";
import { closeServer } from "../../src/runtime";
import { startHarness, type Harness } from "../support/harness";

let h: Harness;
test.before(async () => {
  h = await startHarness();
});
test.after.always(async () => {
  await h?.close();
});

/** The app on its own port with the given dependencies, for as long as `fn` runs. */
async function withApp<T>(deps: AppDeps, fn: (baseUrl: string) => Promise<T>): Promise<T> {
  const server = createApp(deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await closeServer(server);
  }
}

/** What health says of the Temporal side this installation uses. */
const installationOf = (harness: Harness) => ({
  installation: harness.deps.temporal.installationId,
  temporal_namespace: "default",
  task_queue: harness.deps.temporal.taskQueue,
});

test("health answers 200 with both connections ok and names the installation, namespace and task queue, without a token", async (t) => {
  const response = await h.request("GET", "/health");
  t.is(response.status, 200);
  t.deepEqual(response.body, { status: "ok", database: "ok", temporal: "ok", ...installationOf(h) });
  const installation = await h.knex("installation").first("id");
  t.regex(response.body.installation, /^[0-9a-f]{12}$/);
  t.is(response.body.installation, installation.id);
  t.is(response.body.task_queue, `convo-sched-test-${installation.id}`);
});

test("health answers 503 and names the database when PostgreSQL is unreachable", async (t) => {
  // Built directly rather than with connectDatabase, which would rebind every model to it.
  const deadDatabase = knexFactory({ client: "pg", connection: "postgres://postgres@127.0.0.1:1/none", pool: { min: 0, max: 1 }, acquireConnectionTimeout: 3000, log: { error: () => undefined } });
  try {
    const response = await withApp({ ...h.deps, knex: deadDatabase }, async (base) => fetch(`${base}/health`));
    t.is(response.status, 503);
    t.deepEqual(await response.json(), { ...installationOf(h), status: "degraded", database: "unreachable", temporal: "ok" });
  } finally {
    await deadDatabase.destroy();
  }
});

test("health answers 503 within its deadline and names Temporal when its frontend is unreachable", async (t) => {
  // Left open: closing a connection while its retry timer is pending throws inside @temporalio/client.
  const connection = Connection.lazy({ address: "127.0.0.1:1", connectTimeout: 1000 });
  const client = new Client({ connection, namespace: "default" });
  const started = Date.now();
  const response = await withApp({ ...h.deps, temporal: { ...h.deps.temporal, client } }, async (base) => fetch(`${base}/health`));
  t.is(response.status, 503);
  t.deepEqual(await response.json(), { ...installationOf(h), status: "degraded", database: "ok", temporal: "unreachable" });
  t.true(Date.now() - started < 6000, "answers promptly although the client keeps retrying");
});
