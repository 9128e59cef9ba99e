import type { AddressInfo } from "node:net";
import { Client, Connection } from "@temporalio/client";
import test from "ava";
import knexFactory from "knex";
import pg from "pg";
import { createApp } from "../../src/app";
import type { AppDeps } from "../../src/deps";
import { closeServer } from "../../src/runtime";
import { EventRelay, RELAY_APPLICATION_NAME } from "../../src/events/relay";
import { eventually } from "../support/eventually";
import { createAccount } from "../support/factories";
import { type Harness, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";

// A database of this file's own: what health says of the relay and the outbox must not depend on
// the relays and events of other test files.
let own: OwnDatabase;
test.before(async () => {
  own = await createOwnDatabase("health");
});
const h = useHarness(test, () => ({ databaseUrl: own.url }));
test.after.always(async () => {
  await own?.drop();
});

/** A relay of its own on the file's database, for as long as `fn` runs; it hands events to no one. */
async function withRelay<T>(fn: () => Promise<T>): Promise<T> {
  const relay = new EventRelay(h.deps, { consumers: [] });
  await relay.start();
  try {
    return await fn();
  } finally {
    await relay.stop();
  }
}

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

// Serial: the tests start and stop the one relay health looks for.
test.serial("health answers 200 with both connections ok, a listening relay and an empty outbox, and names the installation, without a token", async (t) => {
  await withRelay(async () => {
    const response = await h.request("GET", "/health");
    t.is(response.status, 200);
    t.deepEqual(response.body, {
      status: "ok",
      database: "ok",
      temporal: "ok",
      events: "flowing",
      relay: "listening",
      outbox: { backlog: 0, oldest_undispatched_age_seconds: 0, parked: 0 },
      ...installationOf(h),
    });
    const installation = await h.knex("installation").first("id");
    t.regex(response.body.installation, /^[0-9a-f]{12}$/);
    t.is(response.body.installation, installation.id);
    t.is(response.body.task_queue, `convo-sched-test-${installation.id}`);
  });
});

test.serial("without the relay's connection health answers 503, though other connections LISTEN on the same database and channel", async (t) => {
  // The auth cache of the harness LISTENs already; a stranger LISTENs on the relay's own channel.
  const stranger = new pg.Client({ connectionString: own.url, application_name: "someone else" });
  await stranger.connect();
  t.teardown(() => stranger.end());
  await stranger.query("LISTEN events");
  t.truthy(await h.knex("pg_stat_activity").where({ application_name: "someone else" }).first(), "the stranger is on the server");

  const response = await h.request("GET", "/health");
  t.is(response.status, 503);
  t.like(response.body, { status: "degraded", database: "ok", temporal: "ok", events: "stalled", relay: "not listening" });

  await withRelay(async () => {
    const back = await h.request("GET", "/health");
    t.like(back.body, { status: "ok", relay: "listening", events: "flowing" });
    const relays = await h
      .knex("pg_stat_activity")
      .where({ application_name: RELAY_APPLICATION_NAME, datname: h.knex.raw("current_database()") })
      .count<{ count: string }[]>("* as count");
    t.is(Number(relays[0]!.count), 1);
  });
  const gone = await eventually(
    () => h.request("GET", "/health"),
    (r) => r.body.relay === "not listening",
    "health to see the relay stop",
  );
  t.is(gone.status, 503);
});

test.serial("a relay whose LISTEN connection drops listens again by itself, and health follows it down and back up", async (t) => {
  await withRelay(async () => {
    const relayBackends = () =>
      h
        .knex("pg_stat_activity")
        .where({ application_name: RELAY_APPLICATION_NAME, datname: h.knex.raw("current_database()") })
        .pluck("pid");
    const [pid] = await relayBackends();
    t.truthy(pid, "the relay listens");
    await h.knex.raw("SELECT pg_terminate_backend(?)", [pid]);
    const back = await eventually(relayBackends, (pids) => pids.length === 1 && pids[0] !== pid, "the relay to listen again on a new connection");
    t.not(back[0], pid);
    const health = await eventually(
      () => h.request("GET", "/health"),
      (r) => r.body.relay === "listening",
      "health to see the relay listening again",
    );
    t.is(health.status, 200);
  });
});

test.serial("health answers 503 when the oldest undispatched event is older than the limit, and 200 once it goes out", async (t) => {
  const account = await createAccount(h);
  // Committed an hour ago and postponed for a day: the relay listens, but events have stopped flowing.
  const [event] = await h
    .knex("events")
    .insert({
      account_id: account.id,
      name: "contact_created",
      payload: {},
      created_at: h.knex.raw("now() - interval '1 hour'"),
      dispatch_after: h.knex.raw("now() + interval '1 day'"),
    })
    .returning("id");
  await withRelay(async () => {
    const stalled = await h.request("GET", "/health");
    t.is(stalled.status, 503);
    t.like(stalled.body, { status: "degraded", database: "ok", temporal: "ok", relay: "listening", events: "stalled" });
    t.true(stalled.body.outbox.backlog >= 1);
    t.true(stalled.body.outbox.oldest_undispatched_age_seconds >= 3600);

    await h.knex("events").where("id", event.id).update({ dispatched_at: new Date() });
    const flowing = await eventually(
      () => h.request("GET", "/health"),
      (r) => r.status === 200,
      "health to recover",
    );
    t.like(flowing.body, { events: "flowing", relay: "listening" });
    t.true(flowing.body.outbox.oldest_undispatched_age_seconds < 3600);
  });
});

test.serial("health answers 503 and names the database when PostgreSQL is unreachable", async (t) => {
  // Built directly rather than with connectDatabase, which would rebind every model to it.
  const deadDatabase = knexFactory({
    client: "pg",
    connection: "postgres://postgres@127.0.0.1:1/none",
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: 3000,
    log: { error: () => undefined },
  });
  try {
    const response = await withApp({ ...h.deps, knex: deadDatabase }, async (base) => fetch(`${base}/health`));
    t.is(response.status, 503);
    t.deepEqual(await response.json(), {
      ...installationOf(h),
      status: "degraded",
      database: "unreachable",
      temporal: "ok",
      events: "stalled",
      relay: "unknown",
      outbox: "unknown",
    });
  } finally {
    await deadDatabase.destroy();
  }
});

test.serial("health answers 503 within its deadline and names Temporal when its frontend is unreachable", async (t) => {
  // Left open: closing a connection while its retry timer is pending throws inside @temporalio/client.
  const connection = Connection.lazy({ address: "127.0.0.1:1", connectTimeout: 1000 });
  const client = new Client({ connection, namespace: "default" });
  const started = Date.now();
  await withRelay(async () => {
    const response = await withApp({ ...h.deps, temporal: { ...h.deps.temporal, client } }, async (base) => fetch(`${base}/health`));
    t.is(response.status, 503);
    t.like(await response.json(), { ...installationOf(h), status: "degraded", database: "ok", temporal: "unreachable", relay: "listening", events: "flowing" });
  });
  t.true(Date.now() - started < 6000, "answers promptly although the client keeps retrying");
});
