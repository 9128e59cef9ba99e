import test from "ava";
import { transactionRetryingDeadlocks } from "../../src/db/deadlocks";
import { useHarness } from "../support/harness";

const h = useHarness(test);
const TABLE = "deadlock_probe";

test.before(async () => {
  await h.knex.raw(`drop table if exists ${TABLE}`);
  await h.knex.raw(`create table ${TABLE} (id int primary key, touched int not null default 0)`);
  await h.knex(TABLE).insert([{ id: 1 }, { id: 2 }]);
});

test("a transaction PostgreSQL aborts to break a deadlock runs again and commits; the other side commits too", async (t) => {
  let attempts = 0;
  let holding!: () => void;
  const otherHoldsRow1 = new Promise<void>((resolve) => (holding = resolve));
  let waiting!: () => void;
  const firstWaits = new Promise<void>((resolve) => (waiting = resolve));
  const other = h.knex.transaction(async (trx) => {
    await trx(TABLE).where("id", 1).increment("touched", 1);
    holding();
    await firstWaits;
    await trx(TABLE).where("id", 2).increment("touched", 1);
  });
  await otherHoldsRow1;
  const retried = transactionRetryingDeadlocks(h.knex, async (trx) => {
    attempts++;
    await trx(TABLE).where("id", 2).increment("touched", 1);
    // Row 1 is the other side's: the first attempt waits for it first, so its backend finds the deadlock.
    if (attempts === 1) setTimeout(waiting, 300);
    await trx(TABLE).where("id", 1).increment("touched", 1);
    return attempts;
  });
  const [ran] = await Promise.all([retried, other]);
  t.is(ran, 2, "the aborted attempt ran again");
  t.deepEqual(await h.knex(TABLE).orderBy("id").select("id", "touched"), [
    { id: 1, touched: 2 },
    { id: 2, touched: 2 },
  ]);
});

test("other errors are not retried", async (t) => {
  let attempts = 0;
  await t.throwsAsync(() =>
    transactionRetryingDeadlocks(h.knex, async (trx) => {
      attempts++;
      await trx.raw("select 1 / 0");
    }),
  );
  t.is(attempts, 1);
});
