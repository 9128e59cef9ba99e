import test from "ava";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import type { AppointmentState } from "../../src/scheduling/appointmentLife";
import type { TimelineStep } from "../../src/scheduling/appointmentTimeline";
import { TOUCH_SIGNAL } from "../../src/temporal/contracts";
import { timerDurations, uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const input = { accountId: 1, appointmentId: 21 };
const waiting = (next: TimelineStep): AppointmentState => ({
  status: "waiting",
  appointmentStatus: "booked",
  next,
  resourceId: 5,
  startsAt: Date.now() + 3_600_000,
  details: "waiting",
});

test("an appointment fires its step when it is due, then ends with the booking's status once nothing more can happen", async (t) => {
  const fired: TimelineStep[] = [];
  let syncs = 0;
  const result = await withWorker(
    env,
    {
      syncAppointment: async (): Promise<AppointmentState> =>
        ++syncs === 1
          ? waiting({ kind: "hold", at: Date.now() + 300 })
          : { status: "over", appointmentStatus: "cancelled", resourceId: 5, startsAt: Date.now(), details: "cancelled" },
      fireAppointmentStep: async (_id: number, step: TimelineStep) => {
        fired.push(step);
        return "hold expired: cancelled";
      },
    },
    (taskQueue) => env.client.workflow.execute("appointmentWorkflow", { taskQueue, workflowId: uniqueId("appointment"), args: [input] }),
  );
  t.is(result, "cancelled");
  t.deepEqual(
    fired.map((step) => step.kind),
    ["hold"],
  );
  t.is(syncs, 2);
});

test("a change wakes the appointment before its step: it looks again instead of firing, and ends when the booking is gone", async (t) => {
  let syncs = 0;
  const fired: TimelineStep[] = [];
  // A touch that lands before the first look is already covered by that look; this one comes after it.
  let firstLook!: () => void;
  const looked = new Promise<void>((resolve) => (firstLook = resolve));
  const result = await withWorker(
    env,
    {
      syncAppointment: async (): Promise<AppointmentState> => {
        if (++syncs > 1) return { status: "gone", details: "gone" };
        firstLook();
        return waiting({ kind: "start", at: Date.now() + 600_000 });
      },
      fireAppointmentStep: async (_id: number, step: TimelineStep) => {
        fired.push(step);
        return null;
      },
    },
    async (taskQueue) => {
      const handle = await env.client.workflow.start("appointmentWorkflow", { taskQueue, workflowId: uniqueId("appointment"), args: [input] });
      await looked;
      await handle.signal(TOUCH_SIGNAL);
      return handle.result();
    },
  );
  t.is(result, "gone");
  t.deepEqual(fired, []);
});

test("a worker whose clock is behind the server's re-checks a due step after at least a second, doubling, not in a 1 ms loop", async (t) => {
  const skewMs = 3000;
  let at: number | undefined;
  let over = false;
  const workflowId = uniqueId("appointment-skew");
  const result = await withWorker(
    env,
    {
      // The activities judge "due" by their own clock, three seconds behind the server's.
      syncAppointment: async (): Promise<AppointmentState> =>
        over
          ? { status: "over", appointmentStatus: "booked", resourceId: 5, startsAt: Date.now(), details: "started" }
          : waiting({ kind: "reminder", at: (at ??= Date.now() + 300), offsetMinutes: 60, startsAt: Date.now() + 3_600_000 }),
      fireAppointmentStep: async () => {
        if (Date.now() - skewMs < at!) return null;
        over = true;
        return "reminder sent";
      },
    },
    (taskQueue) => env.client.workflow.execute("appointmentWorkflow", { taskQueue, workflowId, args: [input] }),
  );
  t.is(result, "booked");
  const timers = await timerDurations(env, workflowId);
  t.true(timers.length >= 2, `waits ${timers.join(", ")}`);
  t.true(timers[0] <= 300, `the first wait is until the step, ${timers[0]} ms`);
  t.deepEqual(timers.slice(1), [1000, 2000, 4000].slice(0, timers.length - 1));
});

test("after a reminder offsets change, the scheduling settings workflow re-plans every upcoming booking of the account", async (t) => {
  const touched: number[] = [];
  const result = await withWorker(
    env,
    {
      touchAccountAppointments: async (accountId: number) => {
        touched.push(accountId);
        return 3;
      },
    },
    (taskQueue) => env.client.workflow.execute("schedulingSettingsWorkflow", { taskQueue, workflowId: uniqueId("scheduling-settings"), args: [7] }),
  );
  t.is(result, 3);
  t.deepEqual(touched, [7]);
});

test("account deletion removes batches until none is left, then the account row, retrying a batch that failed", async (t) => {
  const batches = [
    { done: false, step: "messages", deleted: 500 },
    { done: false, step: "conversations", deleted: 20 },
    { done: true, deleted: 0 },
  ];
  const calls: string[] = [];
  let failedOnce = false;
  const result = await withWorker(
    env,
    {
      deleteAccountBatch: async (accountId: number) => {
        calls.push(`batch ${accountId}`);
        if (calls.length === 2 && !failedOnce) {
          failedOnce = true;
          throw new Error("deadlock detected");
        }
        return batches.shift()!;
      },
      deleteAccountRow: async (accountId: number) => void calls.push(`row ${accountId}`),
    },
    (taskQueue) => env.client.workflow.execute("accountDeletionWorkflow", { taskQueue, workflowId: uniqueId("account-deletion"), args: [8] }),
  );
  t.deepEqual(result, { deletedRows: 520 });
  t.deepEqual(calls, ["batch 8", "batch 8", "batch 8", "batch 8", "row 8"]);
});

test("account deletion that continued as new carries its count on", async (t) => {
  const result = await withWorker(env, { deleteAccountBatch: async () => ({ done: true, deleted: 0 }), deleteAccountRow: async () => undefined }, (taskQueue) =>
    env.client.workflow.execute("accountDeletionWorkflow", { taskQueue, workflowId: uniqueId("account-deletion"), args: [8, 1234] }),
  );
  t.deepEqual(result, { deletedRows: 1234 });
});

test("after auto-resolve settings change, the account timers workflow re-plans the account's timers", async (t) => {
  const result = await withWorker(env, { touchAccountTimers: async (accountId: number) => accountId * 2 }, (taskQueue) =>
    env.client.workflow.execute("accountTimersWorkflow", { taskQueue, workflowId: uniqueId("account-timers"), args: [21] }),
  );
  t.is(result, 42);
});
