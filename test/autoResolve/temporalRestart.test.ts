import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import test from "ava";
import { eventually } from "../support/eventually";
import { startTemporalDevServer, type RunningTemporal } from "../../src/infra/temporalDevServer";
import { useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { contents, deadlineIn, openConversation, setupSettled, show, sweepHandle, sweepSleeping } from "./support";

// This file takes its Temporal server down, so it runs a server of its own (persisting to a SQLite
// file, as `npm start` does) and a database of its own: a relay on the shared database would hand
// other files' events to a server that is about to stop, and theirs would take ours elsewhere.
const dir = mkdtempSync(path.join(tmpdir(), "convo-sched-temporal-restart-"));
const dbFile = path.join(dir, "temporal.db");
let port: number;
let temporal: RunningTemporal | undefined;
let database: OwnDatabase | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: free } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return free;
}

/** Same port and same file: the worker, relay and client reconnect to what they knew. */
const startTemporal = () => startTemporalDevServer({ port, dbFile, namespace: "default" });

test.before(async () => {
  port = await freePort();
  temporal = await startTemporal();
  database = await createOwnDatabase("temporal_restart");
});
const h = useHarness(test, () => ({ relay: true, temporalAddress: temporal!.address, databaseUrl: database!.url }));

test.after.always(async () => {
  await temporal?.stop();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

test("a pending timer survives a restart of the Temporal server and resolves at its deadline", async (t) => {
  const s = await openConversation(h, { auto_resolve_after: 10 });
  await setupSettled(h, s);
  const deadline = await deadlineIn(h, s, 8000);
  const handle = sweepHandle(h.deps);
  const planned = await sweepSleeping(h.deps);

  await temporal!.stop();
  t.true(Date.now() < deadline, "the server went down while the timer was pending");
  temporal = await startTemporal();
  const restartedAt = Date.now();
  t.log(`server back ${deadline - restartedAt} ms before the deadline`);
  t.is((await show(h, s)).status, "open");

  // The very sweep that was waiting came back from the file; nothing started a new one.
  const run = h.deps.temporal.client.workflow.getHandle(handle.workflowId, planned.runId);
  t.is((await run.describe()).status.name, "RUNNING");
  t.is((await handle.describe()).runId, planned.runId);

  const conversation = await eventually(
    () => show(h, s),
    (c) => c.status === "resolved",
    "the conversation to resolve",
    30_000,
  );
  const seenAt = Date.now();
  t.is(conversation.status, "resolved");
  // It cannot fire while the server is down; once the server is back, it fires within seconds of its deadline.
  const due = Math.max(deadline, restartedAt);
  t.true(seenAt - due < 5000, `resolved ${seenAt - due} ms after it was due`);
  const activity = (await contents(h, s)).find(
    (m) => m.message_type === 2 && m.content === "Conversation was marked resolved by system due to 10 minutes of inactivity",
  );
  t.truthy(activity);
  t.true(activity!.created_at.getTime() >= deadline, "not before the deadline");
  // Nothing else waits in this database: the sweep ends.
  t.is(await run.result(), "idle");
});
