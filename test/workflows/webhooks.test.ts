import test from "ava";
import { ApplicationFailure } from "@temporalio/common";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { inParallel } from "../../src/lib/inParallel";
import {
  DELIVER_SIGNAL,
  webhookDeliveryWorkflowId,
  type AttemptFailure,
  type AttemptInput,
  type AttemptsInput,
  type LaneInput,
  type RetrySchedule,
} from "../../src/temporal/contracts";
import { timerDurations, uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const schedule: RetrySchedule = { initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: 400, windowMs: 20_000 };
const unavailable = () => ApplicationFailure.retryable("receiver answered 503", "DeliveryFailed");
const gone = () => ApplicationFailure.nonRetryable("receiver answered 410", "DeliveryFailed");

/** Mocked attempts (one, or a lane's round): each delivery id answers from its own script, then succeeds. */
function receiver(script: Record<string, (() => Error)[]> = {}) {
  const attempts: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const attemptDelivery = async ({ deliveryId }: AttemptInput) => {
    attempts.push(deliveryId);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const next = script[deliveryId]?.shift();
      if (next) throw next();
      return { status: 200 };
    } finally {
      inFlight--;
    }
  };
  const attemptDeliveries = async ({ deliveryIds, timeoutMs, parallel }: AttemptsInput) => {
    const failures: Record<string, AttemptFailure> = {};
    await inParallel(deliveryIds, parallel, async (deliveryId) => {
      await attemptDelivery({ deliveryId, timeoutMs }).catch((err: ApplicationFailure) => {
        failures[deliveryId] = { reason: err.message, permanent: err.nonRetryable === true };
      });
    });
    return failures;
  };
  return { attempts, maxInFlight: () => maxInFlight, attemptDelivery, attemptDeliveries };
}

const laneInput = (overrides: Partial<LaneInput> = {}): LaneInput => ({
  installationId: uniqueId("inst"),
  accountId: 1,
  target: "https://hooks.example.test/in",
  schedule,
  timeoutMs: 1000,
  idleMs: 500,
  ...overrides,
});
const delivery = (id: string) => ({ id, eventName: "message_created", conversationId: 4 });

test("a lane sends each delivery once, drops repeats, and hands a failed one to its own retrying workflow", async (t) => {
  const input = laneInput();
  const [ok, flaky] = [uniqueId("d"), uniqueId("d")];
  const mock = receiver({ [flaky]: [unavailable, unavailable] });
  const failures: string[] = [];
  const { lane, retried } = await withWorker(
    env,
    { attemptDelivery: mock.attemptDelivery, attemptDeliveries: mock.attemptDeliveries, handleDeliveryFailure: async (id: string) => void failures.push(id) },
    async (taskQueue) => {
      const handle = await env.client.workflow.signalWithStart("webhookLaneWorkflow", {
        taskQueue,
        workflowId: uniqueId("lane"),
        args: [input],
        signal: DELIVER_SIGNAL,
        signalArgs: [[delivery(ok), delivery(flaky)]],
      });
      // A relay that re-sends after a crash: the lane has seen these ids and sends nothing again.
      await handle.signal(DELIVER_SIGNAL, [delivery(ok)]);
      const lane = await handle.result();
      const retried = await env.client.workflow.getHandle(webhookDeliveryWorkflowId(input.installationId, flaky)).result();
      return { lane, retried };
    },
  );
  t.deepEqual(lane, { sent: 1, retrying: 1 });
  t.is(retried, "delivered");
  t.is(mock.attempts.filter((id) => id === ok).length, 1);
  // The lane's attempt, one retry that fails again, one that arrives.
  t.is(mock.attempts.filter((id) => id === flaky).length, 3);
  t.deepEqual(failures, []);
});

test("a lane sends at most `concurrency` at once, all of them in the end", async (t) => {
  const ids = Array.from({ length: 6 }, () => uniqueId("d"));
  const mock = receiver();
  const result = await withWorker(env, { attemptDeliveries: mock.attemptDeliveries }, (taskQueue) =>
    env.client.workflow.execute("webhookLaneWorkflow", {
      taskQueue,
      workflowId: uniqueId("lane"),
      args: [laneInput({ concurrency: 2, queued: ids.map(delivery) })],
    }),
  );
  t.deepEqual(result, { sent: 6, retrying: 0 });
  t.deepEqual([...mock.attempts].sort(), [...ids].sort());
  t.true(mock.maxInFlight() <= 2, `${mock.maxInFlight()} at once`);
});

test("a delivery signalled while a lane works through a backlog goes out before the rest of the backlog", async (t) => {
  const backlog = Array.from({ length: 250 }, () => uniqueId("d"));
  const fresh = uniqueId("d");
  const mock = receiver();
  const result = await withWorker(env, { attemptDeliveries: mock.attemptDeliveries }, async (taskQueue) => {
    const handle = await env.client.workflow.signalWithStart("webhookLaneWorkflow", {
      taskQueue,
      workflowId: uniqueId("lane"),
      args: [laneInput({ concurrency: 20 })],
      signal: DELIVER_SIGNAL,
      signalArgs: [backlog.map(delivery)],
    });
    while (mock.attempts.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await handle.signal(DELIVER_SIGNAL, [delivery(fresh)]);
    return handle.result();
  });
  t.deepEqual(result, { sent: 251, retrying: 0 });
  // Rounds take 100: the fresh delivery joins the round after the one under way, not the backlog's end.
  const position = mock.attempts.indexOf(fresh);
  t.true(position >= 0 && position < 201, `sent ${position + 1}th of ${mock.attempts.length}`);
});

test("a delivery signalled while a slow round is under way goes out without waiting for that round", async (t) => {
  const [slow, fresh] = [uniqueId("d"), uniqueId("d")];
  const finished = new Map<string, number>();
  const attemptDeliveries = async ({ deliveryIds }: AttemptsInput) => {
    await new Promise((resolve) => setTimeout(resolve, deliveryIds.includes(slow) ? 2000 : 10));
    for (const id of deliveryIds) finished.set(id, Date.now());
    return {};
  };
  let slowStarted = false;
  const result = await withWorker(
    env,
    {
      attemptDeliveries: (input: AttemptsInput) => {
        if (input.deliveryIds.includes(slow)) slowStarted = true;
        return attemptDeliveries(input);
      },
    },
    async (taskQueue) => {
      const handle = await env.client.workflow.signalWithStart("webhookLaneWorkflow", {
        taskQueue,
        workflowId: uniqueId("lane"),
        args: [laneInput()],
        signal: DELIVER_SIGNAL,
        signalArgs: [[delivery(slow)]],
      });
      while (!slowStarted) await new Promise((resolve) => setTimeout(resolve, 10));
      await handle.signal(DELIVER_SIGNAL, [delivery(fresh)]);
      return handle.result();
    },
  );
  t.deepEqual(result, { sent: 2, retrying: 0 });
  t.true(finished.get(fresh)! < finished.get(slow)!, "the fresh delivery went out while the slow round was still sending");
});

test("a delivery the receiver refuses for good fails at once and runs the failure handling once", async (t) => {
  const id = uniqueId("d");
  const mock = receiver({ [id]: [gone] });
  const failures: string[] = [];
  const result = await withWorker(
    env,
    { attemptDelivery: mock.attemptDelivery, handleDeliveryFailure: async (deliveryId: string) => void failures.push(deliveryId) },
    (taskQueue) =>
      env.client.workflow.execute("webhookDeliveryWorkflow", {
        taskQueue,
        workflowId: uniqueId("delivery"),
        args: [{ deliveryId: id, schedule, timeoutMs: 1000 }],
      }),
  );
  t.is(result, "failed");
  t.deepEqual(mock.attempts, [id]);
  t.deepEqual(failures, [id]);
});

test("a delivery that keeps failing retries on its schedule until the window closes, then fails", async (t) => {
  const id = uniqueId("d");
  const mock = receiver({ [id]: Array.from({ length: 20 }, () => unavailable) });
  const failures: string[] = [];
  const workflowId = uniqueId("delivery");
  const result = await withWorker(
    env,
    { attemptDelivery: mock.attemptDelivery, handleDeliveryFailure: async (deliveryId: string) => void failures.push(deliveryId) },
    (taskQueue) =>
      // Its lane already made the first attempt: the workflow goes on from there.
      env.client.workflow.execute("webhookDeliveryWorkflow", {
        taskQueue,
        workflowId,
        args: [{ deliveryId: id, schedule: { ...schedule, windowMs: 1500 }, timeoutMs: 1000, firstFailure: { reason: "503", permanent: false } }],
      }),
  );
  t.is(result, "failed");
  t.deepEqual(failures, [id]);
  const sleeps = await timerDurations(env, workflowId);
  // Backing off from 200 ms to the 400 ms cap, with one attempt after each wait, while the 1.5 s window lasts.
  t.true(sleeps.length >= 1 && sleeps.length <= 4, `waits ${sleeps.join(", ")}`);
  t.deepEqual(sleeps, [200, 400, 400, 400].slice(0, sleeps.length));
  t.is(mock.attempts.length, sleeps.length);
});
