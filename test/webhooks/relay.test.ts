import test from "ava";
import { loadSettings } from "../../src/config";
import { connectDatabase, type Database } from "../../src/db";
import type { AppDeps } from "../../src/deps";
import { Client, Connection } from "@temporalio/client";
import { EventRelay } from "../../src/events/relay";
import { redriveParkedEvents } from "../../src/events/parked";
import type { EventConsumer, EventRow } from "../../src/events/outbox";
import { connectTemporalClient } from "../../src/temporal/client";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { redirectLogs } from "../../src/lib/logger";

// The relay's own bookkeeping, with consumers that stand in for Temporal so a test can decide which
// hand-over fails. A database of its own: every other file's relay drains the shared one.
let database: OwnDatabase;
let knex: Database;
let deps: AppDeps;
let accountId: number;

test.before(async () => {
  database = await createOwnDatabase("relay");
  knex = connectDatabase(database.url, { min: 0, max: 5 });
  deps = {
    knex,
    settings: loadSettings(),
    temporal: { client: await connectTemporalClient(process.env.TEMPORAL_ADDRESS!, "default"), taskQueue: "unused", installationId: "relay" },
  };
  [{ id: accountId }] = await knex("accounts").insert({ name: "Relay" }).returning("id");
});

test.after.always(async () => {
  await deps?.temporal.client.connection.close();
  await knex?.destroy();
  await database?.drop();
});

/** New events for a test; what earlier tests left postponed is set aside, so it cannot come due mid-test. */
async function emit(count: number): Promise<number[]> {
  await knex("events").whereNull("dispatched_at").update({ dispatched_at: new Date() });
  const rows = Array.from({ length: count }, (_, i) => ({ account_id: accountId, name: "contact_created", payload: JSON.stringify({ n: i }) }));
  return (await knex("events").insert(rows).returning("id")).map((row: { id: number }) => row.id);
}

const rowOf = (id: number) => knex("events").where({ id }).first();

function recorder(fails: (event: EventRow) => boolean) {
  const dispatched: number[] = [];
  const consumer: EventConsumer = {
    async dispatch(_deps, events) {
      const bad = events.find(fails);
      if (bad) throw new Error(`cannot hand over event ${bad.id}`);
      dispatched.push(...events.map((event) => event.id));
    },
  };
  return { consumer, dispatched };
}

/** Deps whose Temporal never answers. Left open: closing a connection while its retry timer is pending throws inside @temporalio/client. */
function temporalDown(): AppDeps {
  const client = new Client({ connection: Connection.lazy({ address: "127.0.0.1:1", connectTimeout: 500 }), namespace: "default" });
  return { ...deps, temporal: { ...deps.temporal, client } };
}

/** A drain whose every hand-over fails, without the postponement logs it writes. */
async function drainWhileTemporalIsDown(): Promise<number> {
  const { consumer } = recorder(() => true);
  const restoreLogs = redirectLogs(() => undefined);
  try {
    return await new EventRelay(temporalDown(), { consumers: [consumer] }).drain();
  } finally {
    restoreLogs();
  }
}

// The tests share one events table: serial, so each drain sees only its own test's events.
test.serial("a bad event is postponed with backoff while the events behind it go through, and goes through once it can", async (t) => {
  const [first, bad, last] = await emit(3);
  let poisoned = true;
  const { consumer, dispatched } = recorder((event) => poisoned && event.id === bad);
  const relay = new EventRelay(deps, { consumers: [consumer] });

  t.is(await relay.drain(), 2);
  t.deepEqual(dispatched.sort(), [first, last]);
  const postponed = await rowOf(bad!);
  t.is(postponed.dispatched_at, null);
  t.is(postponed.dispatch_attempts, 1);
  t.is(postponed.last_dispatch_error, `cannot hand over event ${bad}`);
  t.true(new Date(postponed.dispatch_after).getTime() > Date.now());

  t.is(await relay.drain(), 0, "a postponed event waits for its time");
  poisoned = false;
  await new Promise((resolve) => setTimeout(resolve, new Date(postponed.dispatch_after).getTime() - Date.now() + 50));
  t.is(await relay.drain(), 1);
  t.truthy((await rowOf(bad!)).dispatched_at);
});

test.serial("an event whose planning fails is postponed alone; the rest of its batch is planned and dispatched", async (t) => {
  const [bad, good] = await emit(2);
  const planned: number[] = [];
  const { consumer, dispatched } = recorder(() => false);
  const planner: EventConsumer = {
    async plan(db, events) {
      // One statement, as a planner writes: it fails for any batch holding the bad event, and writes nothing then.
      await db("events")
        .whereIn(
          "id",
          events.map((event) => event.id),
        )
        .update({ payload: db.raw(`case when id = ? then (1 / (id - ?))::text::jsonb else '{"planned": true}'::jsonb end`, [bad, bad]) });
      planned.push(...events.map((event) => event.id));
    },
    dispatch: consumer.dispatch,
  };
  t.is(await new EventRelay(deps, { consumers: [planner] }).drain(), 1);
  t.deepEqual([planned, dispatched], [[good], [good]]);
  const row = await rowOf(bad!);
  t.like(row, { dispatched_at: null, dispatch_attempts: 1 });
  t.regex(row.last_dispatch_error, /division by zero/);
  t.deepEqual(row.payload, { n: 0 }, "the failed statement wrote nothing");
  t.deepEqual((await rowOf(good!)).payload, { planned: true });
});

test.serial("when nothing can be handed over the drain stops, every event postponed, for the sweep to retry", async (t) => {
  const ids = await emit(3);
  await t.throwsAsync(drainWhileTemporalIsDown());
  const rows = await knex("events").whereIn("id", ids);
  t.true(rows.every((row) => row.dispatched_at === null && row.dispatch_attempts === 1));
});

test.serial("in an outage the drain gives up after a few failures instead of trying every event of the batch", async (t) => {
  const ids = await emit(6);
  await t.throwsAsync(drainWhileTemporalIsDown());
  const attempts = (await knex("events").whereIn("id", ids).orderBy("id")).map((row) => row.dispatch_attempts);
  t.deepEqual(attempts, [1, 1, 1, 0, 0, 0], "the rest stay due for the sweep");
});

test.serial("while Temporal answers, a run of bad events does not hold back the good event behind them in the batch", async (t) => {
  const ids = await emit(6);
  const good = ids.at(-1)!;
  const { consumer, dispatched } = recorder((event) => event.id !== good);
  const restoreLogs = redirectLogs(() => undefined);
  try {
    t.is(await new EventRelay(deps, { consumers: [consumer] }).drain(), 1);
  } finally {
    restoreLogs();
  }
  t.deepEqual(dispatched, [good]);
  const attempts = (await knex("events").whereIn("id", ids).orderBy("id")).map((row) => row.dispatch_attempts);
  t.deepEqual(attempts, [1, 1, 1, 1, 1, 0]);
});

/** Makes the postponed events due now, as their backoff running out would. */
const comeDue = () => knex("events").whereNull("dispatched_at").whereNull("parked_at").update({ dispatch_after: null });

test.serial("an event that keeps failing while Temporal answers is parked after its retries; the others go on; re-driven, it goes through", async (t) => {
  const [bad] = await emit(1);
  let poisoned = true;
  const { consumer, dispatched } = recorder((event) => poisoned && event.id === bad);
  const restoreLogs = redirectLogs(() => undefined);
  try {
    const relay = new EventRelay(deps, { consumers: [consumer], parkAfterAttempts: 3 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await relay.drain().catch(() => undefined);
      await comeDue();
    }
    const parked = await rowOf(bad!);
    t.like(parked, { dispatched_at: null, dispatch_attempts: 3, last_dispatch_error: `cannot hand over event ${bad}` });
    t.truthy(parked.parked_at);

    const [after] = await knex("events").insert({ account_id: accountId, name: "contact_created", payload: "{}" }).returning("id");
    t.is(await relay.drain(), 1, "a parked event is never claimed again, and what comes after goes through");
    t.deepEqual(dispatched, [after.id]);

    poisoned = false;
    t.deepEqual(await redriveParkedEvents(knex), [bad]);
    t.like(await rowOf(bad!), { parked_at: null, dispatch_attempts: 0 });
    t.is(await relay.drain(), 1);
    t.truthy((await rowOf(bad!)).dispatched_at);
  } finally {
    restoreLogs();
  }
});

test.serial("while Temporal does not answer, an event that keeps failing is postponed, never parked", async (t) => {
  const [bad] = await emit(1);
  const { consumer } = recorder(() => true);
  const restoreLogs = redirectLogs(() => undefined);
  try {
    const relay = new EventRelay(temporalDown(), { consumers: [consumer], parkAfterAttempts: 2 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await relay.drain().catch(() => undefined);
      await comeDue();
    }
  } finally {
    restoreLogs();
  }
  t.like(await rowOf(bad!), { dispatched_at: null, parked_at: null, dispatch_attempts: 3 });
});
