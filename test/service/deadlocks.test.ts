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

/** Resolves once some backend waits for a row lock on the probe table. */
async function lockWaitSeen(): Promise<void> {
  for (;;) {
    const [row] = await h.knex("pg_stat_activity").where({ wait_event_type: "Lock" }).andWhere("query", "like", `%${TABLE}%`).count({ n: "*" });
    if (Number(row!.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
    // Row 1 is the other side's: the other side goes on only once this attempt waits for it, so this
    // backend, waiting longer, is the one that finds the deadlock (a timer raced a loaded machine).
    if (attempts === 1) void lockWaitSeen().then(waiting);
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
