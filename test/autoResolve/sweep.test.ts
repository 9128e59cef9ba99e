import { randomUUID } from "node:crypto";
import test from "ava";
import { planTimers } from "../../src/conversations/timers";
import { createWorker } from "../../src/temporal/worker";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { eventually } from "../support/eventually";
import { accountApi, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { deadlineIn, dueAt, moveDeadline, openConversation, show, sweepHandle, sweepSleeping } from "./support";

// A database of its own: its installation has a sweep of its own, which only the workers this file
// starts run (the suite's other workers serve other installations' task queues).
let database: OwnDatabase | undefined;
test.before(async () => {
  database = await createOwnDatabase("timer_sweep");
});
const h = useHarness(test, () => ({ databaseUrl: database!.url }));
test.after.always(async () => {
  await database?.drop();
});

const startWorker = () =>
  createWorker({
    address: process.env.TEMPORAL_ADDRESS!,
    namespace: "default",
    taskQueue: h.deps.temporal.taskQueue,
    deps: h.deps,
    workflowBundlePath: process.env.WORKFLOW_BUNDLE_PATH,
  });

test.serial("a pending deadline fires after the worker was stopped and another one started", async (t) => {
  const s = await openConversation(h, { auto_resolve_after: 10 });
  const first = await startWorker();
  await first.runUntil(async () => {
    await deadlineIn(h, s, 4000);
    await sweepSleeping(h.deps);
  });
  await new Promise((resolve) => setTimeout(resolve, 6000));
  t.is((await show(h, s)).status, "open", "nothing resolves while no worker runs");

  const second = await startWorker();
  await second.runUntil(async () => {
    const conversation = await eventually(
      () => show(h, s),
      (c) => c.status === "resolved",
      "the conversation to resolve",
      15_000,
    );
    t.is(conversation.status, "resolved");
    t.is(await sweepHandle(h.deps).result(), "idle", "nothing else waits: the sweep ends");
  });
});

test.serial("five hundred deadlines within a second are resolved together, in a few sweeps, none early", async (t) => {
  const account = await createAccount(h);
  await accountApi(h, account).patch("", { auto_resolve_after: 10 });
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  const first = Date.now() + 3000;
  const deadlines = Array.from({ length: 500 }, (_, i) => first + i * 2);
  const ids: number[] = await h
    .knex("conversations")
    .insert(
      deadlines.map((deadline, i) => ({
        account_id: account.id,
        display_id: 10_000 + i,
        uuid: randomUUID(),
        inbox_id: inbox.id,
        contact_id: contact.id,
        status: "open",
        last_activity_at: new Date(deadline - 10 * 60_000),
      })),
    )
    .returning("id")
    .then((rows) => rows.map((row: { id: number }) => row.id));

  const worker = await startWorker();
  await worker.runUntil(async () => {
    await planTimers(h.deps, ids);
    const resolved = await eventually(
      () => h.knex("messages").whereIn("conversation_id", ids).where({ message_type: 2 }).select("conversation_id", "created_at"),
      (rows) => rows.length >= ids.length,
      "every conversation to resolve",
      30_000,
    );
    const deadlineOf = new Map(ids.map((id, i) => [id, deadlines[i]!]));
    const lateness = resolved.map((m) => m.created_at.getTime() - deadlineOf.get(m.conversation_id)!);
    t.is(lateness.filter((ms) => ms < 0).length, 0, "none before its deadline");
    // How late is the bench's business (npm run bench -- timers); this rules out one left for a later wake-up.
    t.true(Math.max(...lateness) < 10_000, `at most ${Math.max(...lateness)} ms late`);
    t.is(await sweepHandle(h.deps).result(), "idle");
  });
  const history = await sweepHandle(h.deps).fetchHistory();
  const sweeps = history.events!.filter((e) => e.activityTaskScheduledEventAttributes).length;
  t.true(sweeps <= 10, `${sweeps} sweeps for 500 deadlines`);
  t.deepEqual(await h.knex("conversations").whereIn("id", ids).whereNotNull("timer_due_at").pluck("id"), [], "nothing waits any more");
});

test.serial("a conversation that cannot be resolved is tried again a minute later; the others of its sweep resolve", async (t) => {
  const good = await openConversation(h, { auto_resolve_after: 10 });
  const bad = await openConversation(h, { auto_resolve_after: 10 });
  // Something in the database refuses this one conversation's resolve, whatever the cause.
  await h.knex.raw(`CREATE FUNCTION refuse_resolve() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`);
  await h.knex.raw(
    `CREATE TRIGGER refuse_resolve BEFORE UPDATE OF status ON conversations FOR EACH ROW WHEN (NEW.id = ${bad.conversation.dbId}) EXECUTE FUNCTION refuse_resolve()`,
  );
  try {
    const worker = await startWorker();
    await worker.runUntil(async () => {
      await moveDeadline(h, good, 1000);
      await deadlineIn(h, bad, 1000);
      await planTimers(h.deps, [good.conversation.dbId]);
      const resolved = await eventually(
        () => show(h, good),
        (c) => c.status === "resolved",
        "the other conversation to resolve",
        15_000,
      );
      t.is(resolved.status, "resolved");
      const retryAt = await eventually(
        () => dueAt(h, bad),
        (at) => at !== null && at > Date.now() + 30_000,
        "the refused one to wait about a minute",
        15_000,
      );
      t.true(retryAt! < Date.now() + 61_000);
      t.is((await show(h, bad)).status, "open");
    });
  } finally {
    await h.knex.raw("DROP TRIGGER refuse_resolve ON conversations");
    await h.knex.raw("DROP FUNCTION refuse_resolve()");
  }
});
