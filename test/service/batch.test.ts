import test, { type ExecutionContext } from "ava";
import knexFactory, { type Knex } from "knex";
import { loadConfig } from "../../src/config";
import { Batch, nameStatements } from "../../src/db/batch";
import { databaseConfig } from "../../src/db/index";
import { Sql, sql, sqlText } from "../../src/db/sql";
import { Inbox } from "../../src/models/Inbox";
import { createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

/** A database handle of its own with a pool of one connection, so every batch lands where the earlier ones named their statements. */
function oneConnection(t: ExecutionContext): Knex {
  const db = knexFactory(databaseConfig(process.env.DATABASE_URL!, { min: 0, max: 1 }));
  t.teardown(() => db.destroy());
  return db;
}

/** Text of the test's own: batches anywhere in the process count sightings of the same text. */
const markerOf = (t: ExecutionContext) => `${t.title.replace(/\W+/g, "_").slice(0, 30)}_${process.pid}_${Date.now()}`;

test("a batch answers each statement with its own rows, typed and hydrated as a query would", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const batch = new Batch(h.knex);
  const models = batch.models(Inbox.query(h.knex).findByIds([inbox.id]));
  const counted = batch.rows<{ n: number; at: Date }>(
    h.knex("inboxes").where("account_id", account.id).select(h.knex.raw("count(*)::bigint AS n"), h.knex.raw("now() AS at")),
  );
  const written = batch.modelsWhere(Inbox, "id", [inbox.id], { account_id: account.id });
  const otherAccount = batch.modelsWhere(Inbox, "id", [inbox.id], { account_id: account.id + 1 });
  const skipped = batch.modelsWhere(Inbox, "id", []);
  const pids = [1, 2, 3].map(() => batch.rows<{ pid: number }>(sql`select pg_backend_pid() as pid`));
  await batch.run();

  const [viaBatch] = await models;
  const viaQuery = await Inbox.query(h.knex).findById(inbox.id);
  t.true(viaBatch instanceof Inbox);
  t.deepEqual(viaBatch!.toJSON(), viaQuery!.toJSON());
  t.true(viaBatch!.created_at instanceof Date);
  const [viaText] = await written;
  t.true(viaText instanceof Inbox);
  t.deepEqual(viaText!.toJSON(), viaQuery!.toJSON());
  t.deepEqual(await otherAccount, [], "every condition applies");
  const [row] = await counted;
  t.is(row!.n, 1, "bigints parse as numbers, as for every query");
  t.true(row!.at instanceof Date);
  t.deepEqual(await skipped, []);
  const backends = new Set((await Promise.all(pids)).map(([found]) => found!.pid));
  t.is(backends.size, 1, "the batch's statements share one connection");
});

test("in a transaction a batch runs its statements in order on the transaction's connection, and sees its writes", async (t) => {
  const account = await createAccount(h);
  await h.knex
    .transaction(async (trx) => {
      const batch = new Batch(trx);
      const before = batch.rows<{ name: string }>(sql`select name from accounts where id = ${account.id}`);
      void batch.rows(sql`update accounts set name = ${"Renamed in the batch"} where id = ${account.id}`);
      const after = batch.rows<{ name: string }>(sql`select name from accounts where id = ${account.id}`);
      await batch.run();
      t.is((await before)[0]!.name, "Test Account");
      t.is((await after)[0]!.name, "Renamed in the batch");
      await trx.rollback();
    })
    .catch(() => undefined);
  t.is((await h.knex("accounts").where("id", account.id).first("name")).name, "Test Account", "rolled back with its transaction");
});

test("a batch sends values apart from its text: a value that reads as SQL is only compared; an escaped ? is a question mark", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const batch = new Batch(h.knex);
  const named = batch.rows<{ id: number; name: string }>(
    new Sql(`select id, name from "inboxes" where account_id = ? and name = any(?::text[])`, [account.id, [inbox.name, "x'; DROP TABLE inboxes; --"]]),
  );
  const literal = batch.rows<{ mark: string }>(new Sql("select '\\?' as mark"));
  const since = batch.rows<{ later: boolean }>(new Sql("select now() > ? as later", [new Date(Date.now() - 60_000)]));
  await batch.run();
  t.deepEqual(await named, [{ id: inbox.id, name: inbox.name }]);
  t.deepEqual(await literal, [{ mark: "?" }]);
  t.deepEqual(await since, [{ later: true }]);
  t.truthy(await h.knex("inboxes").where("id", inbox.id).first());
});

test("a failing statement fails the batch, leaves its statements' chains unsettled, and the connection goes back to the pool", async (t) => {
  const db = oneConnection(t);
  const failing = new Batch(db);
  void failing.rows(new Sql("select 1 / ? as n", [0]));
  // A chain a caller never awaits once run() has thrown: it must not become an unhandled rejection.
  const neighbour = failing.rows<{ n: number }>(new Sql("select 2 as n")).then((rows) => rows.length);
  await t.throwsAsync(() => failing.run(), { message: /division by zero/ });
  const settled = await Promise.race([
    neighbour.then(
      () => "settled",
      () => "settled",
    ),
    new Promise((resolve) => setTimeout(resolve, 100, "unsettled")),
  ]);
  t.is(settled, "unsettled");
  t.deepEqual(await Batch.rowsOf(db, new Sql("select ?::int as n", [1])), [{ n: 1 }], "the pool's one connection answers again");
});

test("a statement that recurs is prepared once per connection, and a table changed under it is read afresh", async (t) => {
  const db = oneConnection(t);
  const table = `batch_prepared_${process.pid}`;
  await db.schema.dropTableIfExists(table);
  await db.schema.createTable(table, (columns) => columns.integer("id"));
  t.teardown(() => h.knex.schema.dropTableIfExists(table));
  await db(table).insert({ id: 1 });
  const read = (on: Knex = db) => Batch.rowsOf(on, sql`select * from ${sqlText(table)} where id = ${1}`);
  for (let i = 0; i < 3; i++) t.deepEqual(await read(), [{ id: 1 }]);
  const prepared = await db("pg_prepared_statements").where("statement", "like", `%${table}%`).count({ n: "*" });
  t.is(Number(prepared[0]!.n), 1, "the text is a prepared statement of the connection");

  await db.schema.alterTable(table, (columns) => columns.text("note").defaultTo("added"));
  t.deepEqual(await read(), [{ id: 1, note: "added" }], "outside a transaction the statement runs again");

  await db.schema.alterTable(table, (columns) => columns.text("more").defaultTo("more"));
  await read(); // named afresh: the next reads use the new name
  await read();
  await db.schema.alterTable(table, (columns) => columns.text("last").defaultTo("last"));
  await t.throwsAsync(() => db.transaction((trx) => read(trx)), { message: /cached plan/ }, "a transaction it has aborted fails");
  t.deepEqual(await read(), [{ id: 1, note: "added", more: "more", last: "last" }], "the next batch prepares it afresh");
});

test.serial("with DATABASE_PREPARED_STATEMENTS=off nothing is prepared, for a pooler that moves sessions between connections", async (t) => {
  t.true(loadConfig({}).databasePreparedStatements);
  t.false(loadConfig({ DATABASE_PREPARED_STATEMENTS: "off" }).databasePreparedStatements);
  const db = oneConnection(t);
  const marker = markerOf(t);
  nameStatements(false);
  try {
    for (let i = 0; i < 3; i++) t.deepEqual(await Batch.rowsOf(db, sql`select ${i}::int as n, ${sqlText(`'${marker}'`)} as m`), [{ n: i, m: marker }]);
  } finally {
    nameStatements(true);
  }
  const [prepared] = await db("pg_prepared_statements").where("statement", "like", `%${marker}%`).count({ n: "*" });
  t.is(Number(prepared!.n), 0);
});

test("a batch's rows have their columns in order, whatever their names, and the same columns keep their own types", async (t) => {
  const batch = new Batch(h.knex);
  const odd = batch.rows(new Sql(`select 1 as "__proto__", 'a' as "x""y", null::int as "constructor", 2 as "__proto__2"`));
  const typed = batch.rows(new Sql(`select '5'::text as v`));
  const counted = batch.rows(new Sql(`select '5'::int as v`));
  await batch.run();
  const [row] = await odd;
  t.deepEqual(Object.keys(row!), ["__proto__", 'x"y', "constructor", "__proto__2"]);
  t.is(Object.getPrototypeOf(row), Object.prototype, "a column named __proto__ is not the row's prototype");
  t.deepEqual(Object.values(row!), [1, "a", null, 2]);
  t.deepEqual(await typed, [{ v: "5" }]);
  t.deepEqual(await counted, [{ v: 5 }]);
});
