import test from "ava";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import type { SweepResult } from "../../src/conversations/autoResolve";
import { MIN_SWEEP_GAP_MS, WAKE_SIGNAL, type TimerSweepInput } from "../../src/temporal/contracts";
import { uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const swept = (next: number | null, resolved = 0): SweepResult => ({ resolved, reopened: 0, skipped: 0, failed: 0, next });

test("the sweep sleeps until the earliest deadline, and a deadline signalled meanwhile wakes it earlier", async (t) => {
  const workflowId = uniqueId("sweep-wake");
  const sweeps: number[] = [];
  const start = Date.now();
  const result = await withWorker(
    env,
    {
      sweepConversationTimers: async () => {
        sweeps.push(Date.now());
        return swept(null, 1);
      },
    },
    async (taskQueue) => {
      const input: TimerSweepInput = { wakeAt: start + 60_000 };
      const handle = await env.client.workflow.start("timerSweepWorkflow", { taskQueue, workflowId, args: [input] });
      await new Promise((resolve) => setTimeout(resolve, 500));
      t.is(sweeps.length, 0, "nothing is due yet");
      await handle.signal(WAKE_SIGNAL, Date.now() + 1000);
      return handle.result();
    },
  );
  t.is(result, "idle", "with nothing pending after the sweep, it ends");
  t.is(sweeps.length, 1);
  t.true(sweeps[0]! - start < 10_000, `swept ${sweeps[0]! - start} ms after the start, not a minute`);
});

test("deadlines close together are swept together: sweeps start at least the gap apart", async (t) => {
  const workflowId = uniqueId("sweep-gap");
  let calls = 0;
  await withWorker(
    env,
    {
      // Something is always due again 10 ms later, five times.
      sweepConversationTimers: async () => swept(++calls < 5 ? Date.now() + 10 : null, 1),
    },
    (taskQueue) => env.client.workflow.execute("timerSweepWorkflow", { taskQueue, workflowId, args: [{ wakeAt: Date.now() }] }),
  );
  t.is(calls, 5);
  // When the workflow asked for each sweep, by its own clock: the start of the workflow task that scheduled it.
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events!;
  const timeOf = (id: unknown) => {
    const at = events.find((e) => Number(e.eventId) === Number(id))!.eventTime!;
    return Number(at.seconds) * 1000 + Math.round(at.nanos! / 1e6);
  };
  const asked = events
    .filter((e) => e.activityTaskScheduledEventAttributes)
    .map((e) => {
      const completed = events.find((c) => Number(c.eventId) === Number(e.activityTaskScheduledEventAttributes!.workflowTaskCompletedEventId));
      return timeOf(completed!.workflowTaskCompletedEventAttributes!.startedEventId);
    });
  t.is(asked.length, 5);
  for (let i = 1; i < asked.length; i++) t.true(asked[i]! - asked[i - 1]! >= MIN_SWEEP_GAP_MS, `sweeps ${asked[i]! - asked[i - 1]!} ms apart`);
});

test("after sweepsPerRun sweeps the sweep continues as new with its wake-up", async (t) => {
  const workflowId = uniqueId("sweep-continue");
  let calls = 0;
  const result = await withWorker(
    env,
    {
      sweepConversationTimers: async () => {
        calls++;
        return swept(calls < 3 ? Date.now() + 100 : null);
      },
    },
    (taskQueue) => env.client.workflow.execute("timerSweepWorkflow", { taskQueue, workflowId, args: [{ wakeAt: Date.now(), sweepsPerRun: 2 }] }),
  );
  t.is(result, "idle");
  t.is(calls, 3, "the third sweep ran in the run that continued the first");
  const first = await env.client.workflow.getHandle(workflowId).fetchHistory();
  t.truthy(
    first.events?.some((e) => e.workflowExecutionStartedEventAttributes?.continuedExecutionRunId),
    "the last run continues an earlier one",
  );
});
