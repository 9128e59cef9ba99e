import test, { type ExecutionContext } from "ava";
import knexFactory, { type Knex } from "knex";
import type { Client, Connection } from "pg";
import { loadConfig } from "../../src/config";
import { PgClient } from "../../src/db/pgClient";
import { Sql, sql, sqlText } from "../../src/db/sql";
import { Trip, type TripOptions } from "../../src/db/trip";
import { Inbox } from "../../src/models/Inbox";
import { User } from "../../src/models/User";
import { createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

/**
 * Statements on the inboxes table sent to PostgreSQL while fn runs (the app's own background queries are not counted).
 * Tests that count run serially: a test beside them writing inboxes would be counted too.
 */
async function statementsDuring(fn: () => Promise<void>): Promise<string[]> {
  const sent: string[] = [];
  const onQuery = (query: { sql: string }) => {
    if (query.sql.includes('"inboxes"')) sent.push(query.sql);
  };
  h.knex.on("query", onQuery);
  try {
    await fn();
  } finally {
    h.knex.off("query", onQuery);
  }
  return sent;
}

test.serial("a trip answers each queued select with its own rows, typed and hydrated as a query would, in one statement", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const trip = new Trip(h.knex);
  const models = trip.models(Inbox.query(h.knex).findByIds([inbox.id]));
  const counted = trip.rows<{ n: number; at: Date }>(
    h.knex("inboxes").where("account_id", account.id).select(h.knex.raw("count(*)::bigint AS n"), h.knex.raw("now() AS at")),
  );
  const written = trip.modelsWhere(Inbox, "id", [inbox.id], { account_id: account.id });
  const otherAccount = trip.modelsWhere(Inbox, "id", [inbox.id], { account_id: account.id + 1 });
  const skipped = trip.modelsWhere(Inbox, "id", []);
  const sent = await statementsDuring(() => trip.run());

  t.is(sent.length, 1, "one round trip");
  const [viaTrip] = await models;
  const viaQuery = await Inbox.query(h.knex).findById(inbox.id);
  t.true(viaTrip instanceof Inbox);
  t.deepEqual(viaTrip!.toJSON(), viaQuery!.toJSON());
  t.true(viaTrip!.created_at instanceof Date);
  const [viaText] = await written;
  t.true(viaText instanceof Inbox);
  t.deepEqual(viaText!.toJSON(), viaQuery!.toJSON());
  t.deepEqual(await otherAccount, [], "every condition applies");
  const [row] = await counted;
  t.is(row!.n, 1, "bigints parse as numbers, as for every query");
  t.true(row!.at instanceof Date);
  t.deepEqual(await skipped, []);
  t.false(sent[0]!.includes("1 = 0"), "a lookup with no ids sends nothing");
});

test.serial("a trip inside a transaction sees the transaction's writes; an empty trip sends nothing", async (t) => {
  const account = await createAccount(h);
  await h.knex
    .transaction(async (trx) => {
      await trx("accounts").where("id", account.id).update({ name: "Renamed in the transaction" });
      const trip = new Trip(trx);
      const name = trip.rows<{ name: string }>(trx("accounts").where("id", account.id).select("name"));
      await trip.run();
      t.is((await name)[0]!.name, "Renamed in the transaction");
      await trx.rollback();
    })
    .catch(() => undefined);
  t.deepEqual(await statementsDuring(() => new Trip(h.knex).run()), []);
});

test("a trip sends values apart from its text: a value that reads as SQL is only compared", async (t) => {
  const account = await createAccount(h);
  const trip = new Trip(h.knex);
  const named = trip.rows(h.knex("accounts").where("name", "x'; DROP TABLE accounts; --"));
  const listed = trip.modelsWhere(Inbox, "id", [], { account_id: account.id });
  await trip.run();
  t.deepEqual(await named, []);
  t.deepEqual(await listed, []);
  t.truthy(await h.knex("accounts").where("id", account.id).first());
});

/** A pool of one connection, so every trip lands where the earlier ones prepared their statements. */
function oneConnection(t: ExecutionContext, options: TripOptions = {}): Knex {
  const db = knexFactory({ client: PgClient, connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 }, ...options } as Knex.Config);
  t.teardown(() => db.destroy());
  return db;
}

test("a transaction's BEGIN goes with its first trip, whose writes are the transaction's; a statement of knex's first sends it ahead", async (t) => {
  const db = oneConnection(t);
  const table = `trip_begin_${process.pid}`;
  await db.schema.dropTableIfExists(table);
  await db.schema.createTable(table, (columns) => columns.integer("id"));
  t.teardown(() => h.knex.schema.dropTableIfExists(table));
  // Every round trip ends with the server's ReadyForQuery, on the pool's one connection.
  const client = (await db.client.acquireConnection()) as Client & { connection: Connection };
  let roundTrips = 0;
  const counted = () => roundTrips++;
  client.connection.on("readyForQuery", counted);
  t.teardown(() => client.connection.off("readyForQuery", counted));
  await db.client.releaseConnection(client);
  const insert = async (trx: Knex.Transaction, id: number) => {
    const trip = new Trip(trx);
    const rows = trip.rows(sql`insert into ${sqlText(table)} values (${id}) returning id`);
    await trip.run();
    return rows;
  };
  const ids = async () => (await db(table).orderBy("id")).map((row: { id: number }) => row.id);

  t.deepEqual(await db.transaction((trx) => insert(trx, 1)), [{ id: 1 }]);
  t.is(roundTrips, 2, "the trip with its BEGIN, then COMMIT");
  const undo = new Error("undo");
  await t.throwsAsync(
    db.transaction(async (trx) => {
      await insert(trx, 2);
      throw undo;
    }),
    { is: undo },
  );
  t.deepEqual(await ids(), [1], "the first trip's write is rolled back with its transaction");
  await t.throwsAsync(
    db.transaction(async (trx) => {
      await trx(table).insert({ id: 3 });
      await insert(trx, 4);
      throw undo;
    }),
    { is: undo },
  );
  t.deepEqual(await ids(), [1], "so is a knex statement's, and a trip's after it");
  await db.transaction(async (trx) => {
    await trx(table).insert({ id: 5 });
  });
  t.deepEqual(await ids(), [1, 5]);

  roundTrips = 0;
  const committing = async (trx: Knex.Transaction, id: number) => {
    const trip = new Trip(trx);
    const rows = trip.rows(sql`insert into ${sqlText(table)} values (${id}) returning id`);
    await trip.run({ commit: true });
    return rows;
  };
  t.deepEqual(await db.transaction((trx) => committing(trx, 6)), [{ id: 6 }], "knex's transaction answers the handler's value");
  t.is(roundTrips, 1, "BEGIN, the statement and COMMIT in one round trip; knex sends no COMMIT of its own");
  await t.throwsAsync(
    db.transaction((trx) => committing(trx, Number.NaN)),
    { message: /invalid input syntax/ },
  );
  t.deepEqual(await ids(), [1, 5, 6], "a trip whose statement fails commits nothing, and knex rolls back");
  t.deepEqual(await db.transaction((trx) => insert(trx, 7)), [{ id: 7 }], "the connection is whole again");
  await t.throwsAsync(
    db.transaction((trx) => trx.transaction((nested) => committing(nested, 8))),
    { message: "A trip commits only a top-level transaction" },
  );
  t.deepEqual(await ids(), [1, 5, 6, 7]);
});

test("a statement that recurs is prepared once per connection, and a table changed under it is read afresh", async (t) => {
  const db = oneConnection(t);
  const table = `trip_prepared_${process.pid}`;
  await db.schema.dropTableIfExists(table);
  await db.schema.createTable(table, (columns) => columns.integer("id"));
  t.teardown(() => h.knex.schema.dropTableIfExists(table));
  await db(table).insert({ id: 1 });
  const read = async (on: Knex = db) => {
    const trip = new Trip(on);
    const rows = trip.rows(sql`select * from ${sqlText(table)} where id = ${1}`);
    await trip.run();
    return rows;
  };
  for (let i = 0; i < 3; i++) t.deepEqual(await read(), [{ id: 1 }]);
  const prepared = await db("pg_prepared_statements").where("statement", "like", `%${table}%`).count({ n: "*" });
  t.is(Number(prepared[0]!.n), 1, "the text is a prepared statement of the connection");

  await db.schema.alterTable(table, (columns) => columns.text("note").defaultTo("added"));
  t.deepEqual(await read(), [{ id: 1, note: "added" }], "outside a transaction the trip runs again");

  await db.schema.alterTable(table, (columns) => columns.text("more").defaultTo("more"));
  await t.throwsAsync(() => db.transaction((trx) => read(trx)), { message: /cached plan/ }, "a transaction it has aborted fails");
  t.deepEqual(await read(), [{ id: 1, note: "added", more: "more" }], "the next trip prepares the statement afresh");

  await db.raw("deallocate all");
  t.deepEqual(await read(), [{ id: 1, note: "added", more: "more" }], "a connection that lost its statements prepares them again");
});

test("a lookup of one id reuses its statement's plan, as PostgreSQL does not for `= any` of one", async (t) => {
  const db = oneConnection(t);
  const { admin } = await createAccount(h);
  for (let i = 0; i < 10; i++) {
    const trip = new Trip(db);
    const found = trip.modelsWhere(User, "id", [admin.id]);
    await trip.run();
    t.deepEqual(
      (await found).map((row) => row.id),
      [admin.id],
    );
  }
  // PostgreSQL plans a prepared statement's first five runs for their values, then keeps one plan if
  // it costs no more; `= any($1)` of one id never passed that test and was planned on every run.
  const [plans] = await db("pg_prepared_statements").where("statement", "like", 'select * from "users" where "id" %').select("generic_plans", "custom_plans");
  t.truthy(plans, "the lookup is a prepared statement of the connection");
  t.true(Number(plans!.generic_plans) > 0, `planned once and reused (custom ${plans!.custom_plans}, generic ${plans!.generic_plans})`);
});

/** The round trips (ReadyForQuery answers) PostgreSQL gives the one connection of `db` while fn runs. */
async function roundTrips(db: Knex, fn: () => Promise<unknown>): Promise<number> {
  const client = (await db.client.acquireConnection()) as Client & { connection: Connection };
  await db.client.releaseConnection(client);
  let count = 0;
  const counted = () => count++;
  client.connection.on("readyForQuery", counted);
  try {
    await fn();
  } finally {
    client.connection.off("readyForQuery", counted);
  }
  return count;
}

/**
 * Sends, on one connection, a trip of a statement that divides by the divisor and a second statement
 * twice with divisor 0 (the first fails after its Parse, so PostgreSQL skips the second's), then
 * once with 1. The second statement is prepared from its second trip on, so the last trip finds it
 * parsed only if the connection's record of its statements is right; a wrong record would cost the
 * trip a failed round trip and a second one.
 */
async function afterTwoFailures(t: ExecutionContext, dividing: (divisor: number, marker: string) => Sql): Promise<void> {
  const db = oneConnection(t);
  // Texts of this test's own: trips anywhere in the process count sightings of the same text.
  const marker = `${t.title.replace(/\W+/g, "_").slice(0, 30)} ${process.pid} ${Date.now()}`;
  const trip = async (divisor: number) => {
    const trip = new Trip(db);
    const quotient = trip.rows<{ n: number }>(dividing(divisor, marker));
    const after = trip.rows<{ n: number }>(sql`select ${divisor}::int as n, ${sqlText(`'${marker}'`)} as after`);
    await trip.run();
    return [await quotient, await after].map((rows) => rows.map((row) => row.n));
  };
  await t.throwsAsync(() => trip(0), { message: /division by zero/ });
  await t.throwsAsync(() => trip(0), { message: /division by zero/ });
  let answer: number[][] = [];
  t.is(await roundTrips(db, async () => (answer = await trip(1))), 1);
  t.deepEqual(answer, [[1], [1]]);
}

test("a statement is the connection's only once PostgreSQL has parsed it: one after a failure is parsed again", async (t) => {
  // The dividing statement is prepared too, from its second trip on.
  await afterTwoFailures(t, (divisor, marker) => sql`select 1 / ${divisor}::int as n, ${sqlText(`'${marker}'`)} as m`);
});

test("an unnamed statement's parse before a new prepared one does not count as the prepared one's", async (t) => {
  // Text of its own every time, so never prepared.
  let call = 0;
  await afterTwoFailures(t, (divisor, marker) => sql`select 1 / ${divisor}::int as n, ${sqlText(`'${marker} ${++call}'`)} as m`);
});

test("with DATABASE_PREPARED_STATEMENTS=off nothing is prepared, for a pooler that moves sessions between connections", async (t) => {
  t.true(loadConfig({}).databasePreparedStatements);
  t.false(loadConfig({ DATABASE_PREPARED_STATEMENTS: "off" }).databasePreparedStatements);
  const db = oneConnection(t, { tripPreparedStatements: loadConfig({ DATABASE_PREPARED_STATEMENTS: "off" }).databasePreparedStatements });
  for (let i = 0; i < 3; i++) {
    const trip = new Trip(db);
    const rows = trip.rows(sql`select ${i}::int as n, 'unprepared' as m`);
    await trip.run();
    t.deepEqual(await rows, [{ n: i, m: "unprepared" }]);
  }
  const [prepared] = await db("pg_prepared_statements").count({ n: "*" });
  t.is(Number(prepared!.n), 0);
});

test.serial("a trip takes values for text with ? placeholders, beside statements without; a failing statement fails the trip", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const trip = new Trip(h.knex);
  const named = trip.rows<{ id: number; name: string }>(
    new Sql(`select id, name from "inboxes" where account_id = ? and name = any(?::text[])`, [account.id, [inbox.name, "x'; DROP TABLE inboxes; --"]]),
  );
  const literal = trip.rows<{ mark: string }>(new Sql("select '\\?' as mark"));
  const since = trip.rows<{ later: boolean }>(new Sql("select now() > ? as later", [new Date(Date.now() - 60_000)]));
  const sent = await statementsDuring(() => trip.run());
  t.is(sent.length, 1, "one round trip");
  t.deepEqual(await named, [{ id: inbox.id, name: inbox.name }]);
  t.deepEqual(await literal, [{ mark: "?" }], "an escaped placeholder is a question mark");
  t.deepEqual(await since, [{ later: true }]);

  const failing = new Trip(h.knex);
  void failing.rows(new Sql("select 1 / ? as n", [0]));
  void failing.rows(new Sql("select 1 as n"));
  await t.throwsAsync(() => failing.run(), { message: /division by zero/ });
  const after = new Trip(h.knex);
  const one = after.rows<{ n: number }>(new Sql("select ?::int as n", [1]));
  await after.run();
  t.deepEqual(await one, [{ n: 1 }], "the pool's connections still answer");
});

test("a trip's rows have their columns in order, whatever their names, and the same columns keep their own types", async (t) => {
  const trip = new Trip(h.knex);
  const odd = trip.rows(new Sql(`select 1 as "__proto__", 'a' as "x""y", null::int as "constructor", 2 as "__proto__2"`));
  const typed = trip.rows(new Sql(`select '5'::text as v`));
  const counted = trip.rows(new Sql(`select '5'::int as v`));
  await trip.run();
  const [row] = (await odd) as Record<string, unknown>[];
  t.deepEqual(Object.keys(row!), ["__proto__", 'x"y', "constructor", "__proto__2"]);
  t.is(Object.getPrototypeOf(row), Object.prototype);
  t.deepEqual(Object.values(row!), [1, "a", null, 2]);
  t.deepEqual(await typed, [{ v: "5" }]);
  t.deepEqual(await counted, [{ v: 5 }]);
});
