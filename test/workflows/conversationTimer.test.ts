import { temporal } from "@temporalio/proto";
import test from "ava";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import type { TimerTarget } from "../../src/services/autoResolve";
import type { TimedTimerPlan } from "../../activities/conversationTimer";
import type { TimerPlan } from "../../src/services/conversationTimers";
import { TOUCH_SIGNAL } from "../../src/temporal/contracts";
import { AutoResolveAtAttribute } from "../../src/temporal/searchAttributes";
import { timerDurations, uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const input = { accountId: 1, conversationId: 10, conversationUuid: "7f3a0d1e-0000-4000-8000-000000000001", displayId: 3 };

test("a worker whose clock is behind the server's re-plans after at least a second, doubling, not in a 1 ms loop", async (t) => {
  const skewMs = 3000;
  let at: number | undefined;
  const workflowId = uniqueId("timer-skew");
  const result = await withWorker(
    env,
    {
      planConversationTimer: async (): Promise<TimedTimerPlan> => ({ kind: "resolve", at: (at ??= Date.now() + 300), plannedAt: Date.now() }),
      // The activity judges "due" by its own clock, three seconds behind the server's.
      fireConversationTimer: async (_timer: TimerTarget, kind: TimerPlan["kind"]) =>
        Date.now() - skewMs >= at! ? (kind === "resolve" ? "resolved" : "reopened") : null,
    },
    (taskQueue) => env.client.workflow.execute("conversationTimerWorkflow", { taskQueue, workflowId, args: [input] }),
  );
  t.is(result, "resolved");
  // The waits the workflow asked for: the deadline, then one per "not yet" answer.
  const timers = await timerDurations(env, workflowId);
  t.true(timers.length >= 2, `waits ${timers.join(", ")}`);
  t.true(timers[0] <= 300, `the first wait is until the deadline, ${timers[0]} ms`);
  t.deepEqual(timers.slice(1), [1000, 2000, 4000].slice(0, timers.length - 1));
});

test("a deadline already past fires at once; a touch while waiting re-plans and the new deadline fires", async (t) => {
  let plans = 0;
  const fired: TimerPlan["kind"][] = [];
  const workflowId = uniqueId("timer-touch");
  // A touch that lands before the first plan is already covered by that plan; this one comes after it.
  let firstPlan!: () => void;
  const planned = new Promise<void>((resolve) => (firstPlan = resolve));
  const result = await withWorker(
    env,
    {
      planConversationTimer: async (): Promise<TimedTimerPlan | null> => {
        plans++;
        if (plans === 1) firstPlan();
        // First a far deadline; after the touch the conversation is snoozed until a moment ago.
        const now = Date.now();
        return plans === 1 ? { kind: "resolve", at: now + 60_000, plannedAt: now } : { kind: "reopen", at: now - 1000, plannedAt: now };
      },
      fireConversationTimer: async (_timer: TimerTarget, kind: TimerPlan["kind"]) => {
        fired.push(kind);
        return kind === "reopen" ? "reopened" : null;
      },
    },
    async (taskQueue) => {
      const handle = await env.client.workflow.start("conversationTimerWorkflow", { taskQueue, workflowId, args: [input] });
      await planned;
      const signalledAt = Date.now();
      await handle.signal(TOUCH_SIGNAL);
      const outcome = await handle.result();
      t.true(Date.now() - signalledAt < 45_000, "the touch woke the timer before its first deadline (60 s)");
      return outcome;
    },
  );
  t.is(result, "reopened");
  t.deepEqual(fired, ["reopen"]);
  t.is(plans, 2);
});

test("no plan and no touch: the timer ends idle", async (t) => {
  const result = await withWorker(env, { planConversationTimer: async () => null }, (taskQueue) =>
    env.client.workflow.execute("conversationTimerWorkflow", { taskQueue, workflowId: uniqueId("timer-idle"), args: [input] }),
  );
  t.is(result, "idle");
});

test("after roundsPerRun rounds the timer continues as new and the next run carries on", async (t) => {
  let plans = 0;
  const workflowId = uniqueId("timer-continue");
  const result = await withWorker(
    env,
    {
      // Each round's deadline passes at once and the fire finds activity since: the timer re-plans.
      planConversationTimer: async (): Promise<TimedTimerPlan> => ({ kind: "resolve", at: Date.now() - 1000, plannedAt: Date.now() }),
      fireConversationTimer: async () => (++plans >= 3 ? "resolved" : null),
    },
    async (taskQueue) => {
      const handle = await env.client.workflow.start("conversationTimerWorkflow", { taskQueue, workflowId, args: [{ ...input, roundsPerRun: 1 }] });
      const outcome = await handle.result();
      const first = await env.client.workflow.getHandle(workflowId, handle.firstExecutionRunId).describe();
      t.is(first.status.name, "CONTINUED_AS_NEW");
      return outcome;
    },
  );
  t.is(result, "resolved");
});

test("plan and fire run inside workflow tasks, and only a changed deadline is upserted for the Temporal UI", async (t) => {
  const first = Date.now() + 60_000;
  const second = Date.now() + 500;
  let plans = 0;
  let firstPlan!: () => void;
  const planned = new Promise<void>((resolve) => (firstPlan = resolve));
  const workflowId = uniqueId("timer-local");
  const result = await withWorker(
    env,
    {
      planConversationTimer: async (): Promise<TimedTimerPlan> => {
        if (++plans === 1) firstPlan();
        return { kind: "resolve", at: plans === 1 ? first : second, plannedAt: Date.now() };
      },
      fireConversationTimer: async () => "resolved",
    },
    async (taskQueue) => {
      // Started as the timer consumer starts it: with the deadline it has just planned.
      const handle = await env.client.workflow.start("conversationTimerWorkflow", {
        taskQueue,
        workflowId,
        args: [input],
        typedSearchAttributes: [{ key: AutoResolveAtAttribute, value: new Date(first) }],
      });
      await planned;
      await handle.signal(TOUCH_SIGNAL);
      return handle.result();
    },
  );
  t.is(result, "resolved");
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const count = (type: string) => events.filter((event) => temporal.api.enums.v1.EventType[event.eventType!] === type).length;
  t.is(count("EVENT_TYPE_ACTIVITY_TASK_SCHEDULED"), 0);
  // The patch marker, then one marker per local activity: two plans and the fire.
  t.is(count("EVENT_TYPE_MARKER_RECORDED"), 4);
  // The deadline the run was started with is not upserted again; the one the touch moved is (the
  // patch marker upserts its own TemporalChangeVersion).
  const deadlineUpserts = events.filter((event) => event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.AutoResolveAt);
  t.is(deadlineUpserts.length, 1);
  const { typedSearchAttributes } = await env.client.workflow.getHandle(workflowId).describe();
  t.is(typedSearchAttributes.get(AutoResolveAtAttribute)?.getTime(), second);
});
