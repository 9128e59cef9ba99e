import test from "ava";
import { Trip } from "../../src/db/trip";
import { Inbox } from "../../src/models/Inbox";
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

test("a trip refuses to write text values into SQL", (t) => {
  const trip = new Trip(h.knex);
  t.throws(() => trip.rows(h.knex("accounts").where("name", "x'; DROP TABLE accounts; --")), { message: /only inlines numbers/ });
  t.throws(() => trip.modelsWhere(Inbox, "id", ["1) or (true" as unknown as number]), { message: /Not an id/ });
  t.throws(() => trip.modelsWhere(Inbox, "id", [1], { account_id: 1.5 }), { message: /Not an id/ });
});

test.serial("a trip takes values for text with ? placeholders, beside statements without; a failing statement fails the trip", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const trip = new Trip(h.knex);
  const named = trip.rows<{ id: number; name: string }>(`select id, name from "inboxes" where account_id = ? and name = any(?::text[])`, [
    account.id,
    [inbox.name, "x'; DROP TABLE inboxes; --"],
  ]);
  const literal = trip.rows<{ mark: string }>("select '\\?' as mark");
  const since = trip.rows<{ later: boolean }>("select now() > ? as later", [new Date(Date.now() - 60_000)]);
  const sent = await statementsDuring(() => trip.run());
  t.is(sent.length, 1, "one round trip");
  t.deepEqual(await named, [{ id: inbox.id, name: inbox.name }]);
  t.deepEqual(await literal, [{ mark: "\\?" }], "text without values is sent as written");
  t.deepEqual(await since, [{ later: true }]);

  const failing = new Trip(h.knex);
  void failing.rows("select 1 / ? as n", [0]);
  void failing.rows("select 1 as n");
  await t.throwsAsync(() => failing.run(), { message: /division by zero/ });
  const after = new Trip(h.knex);
  const one = after.rows<{ n: number }>("select ?::int as n", [1]);
  await after.run();
  t.deepEqual(await one, [{ n: 1 }], "the pool's connections still answer");
});

test("a trip's rows have their columns in order, whatever their names, and the same columns keep their own types", async (t) => {
  const trip = new Trip(h.knex);
  const odd = trip.rows(`select 1 as "__proto__", 'a' as "x""y", null::int as "constructor", 2 as "__proto__2"`);
  const typed = trip.rows(`select '5'::text as v`);
  const counted = trip.rows(`select '5'::int as v`);
  await trip.run();
  const [row] = (await odd) as Record<string, unknown>[];
  t.deepEqual(Object.keys(row!), ["__proto__", 'x"y', "constructor", "__proto__2"]);
  t.is(Object.getPrototypeOf(row), Object.prototype);
  t.deepEqual(Object.values(row!), [1, "a", null, 2]);
  t.deepEqual(await typed, [{ v: "5" }]);
  t.deepEqual(await counted, [{ v: 5 }]);
});
