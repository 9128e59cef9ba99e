/**
 * Runs the replay test needs that real activities cannot produce on demand, recorded with mocked
 * activities (a history only needs their answers):
 * - webhookLaneWorkflow-busy-span.json: a busy lane of a span, one delivery a signal, whose rounds
 *   take a while, so signals reach the lane during them; it sends past its span's end and then ends.
 * - appointmentWorkflow-clock-behind.json: a worker whose clock is behind the server's answers
 *   "not yet" until it catches up, so the workflow re-plans with its floor (replanFloor.ts).
 * record.ts runs these after its own scenarios.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker } from "@temporalio/worker";
import { DELIVER_SIGNAL, type LaneDelivery, type LaneInput } from "../../src/temporal/contracts";
import type { TestServices } from "../support/services";
import { saveHistory } from "./historyFiles";

const SKEW_MS = 3000;

const laneInput: LaneInput = {
  installationId: "record",
  accountId: 1,
  webhookId: 1,
  target: "https://receiver.example/hook (account webhook 1, account 1)",
  schedule: { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 60_000, windowMs: 3_600_000 },
  timeoutMs: 5000,
  idleMs: 500,
};

export async function recordMockedRuns(services: TestServices): Promise<void> {
  const env = await TestWorkflowEnvironment.createFromExistingServer({ address: services.temporalAddress, namespace: "default" });
  try {
    const code = readFileSync(services.workflowBundlePath, "utf8");
    await recordBusyLane(env, code, { ...laneInput, spanEnd: Date.now() + 1000 }, 90);
    await recordClockBehind(env, code);
  } finally {
    await env.teardown();
  }
}

/** One delivery a signal, a little apart, so rounds and signals interleave as on a busy lane. */
async function recordBusyLane(env: TestWorkflowEnvironment, code: string, input: LaneInput, signals: number) {
  const taskQueue = "record-busy-lane";
  const workflowId = "busy-lane-span";
  // About as long as a round of a few POSTs, so rounds and signals overlap.
  const activities = { attemptDeliveries: () => sleep(20).then(() => ({})) };
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: { code }, activities });
  await worker.runUntil(async () => {
    const deliver = (i: number) =>
      env.client.workflow.signalWithStart("webhookLaneWorkflow", {
        taskQueue,
        workflowId,
        args: [input],
        signal: DELIVER_SIGNAL,
        signalArgs: [[{ id: `delivery-${i}`, eventName: "contact_created" }] satisfies LaneDelivery[]],
      });
    const handle = await deliver(0);
    for (let i = 1; i < signals; i++) {
      await sleep(15);
      await deliver(i);
    }
    await env.client.workflow.getHandle(workflowId).result();
    const history = await env.client.workflow.getHandle(workflowId, handle.signaledRunId).fetchHistory();
    const file = saveHistory("webhookLaneWorkflow-busy-span", history);
    console.log(`webhookLaneWorkflow: ${history.events?.length} events of a busy lane written to ${file}`);
  });
}

/** The appointment saga with activities whose clock is SKEW_MS behind: "not yet" until it catches up with the first step. */
async function recordClockBehind(env: TestWorkflowEnvironment, code: string) {
  let at: number | undefined;
  let over = false;
  const activities = {
    syncAppointment: async () =>
      over
        ? { status: "over", appointmentStatus: "booked", resourceId: 5, startsAt: Date.now(), details: "started" }
        : {
            status: "waiting",
            appointmentStatus: "booked",
            next: { kind: "reminder", at: (at ??= Date.now() + 300), offsetMinutes: 60, startsAt: Date.now() + 3_600_000 },
            resourceId: 5,
            startsAt: Date.now() + 3_600_000,
            details: "waiting",
          },
    fireAppointmentStep: async () => {
      if (Date.now() - SKEW_MS < at!) return null;
      over = true;
      return "reminder sent";
    },
  };
  const taskQueue = "record-clock-behind";
  const workflowId = "clock-behind-appointment";
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: { code }, activities });
  await worker.runUntil(env.client.workflow.execute("appointmentWorkflow", { taskQueue, workflowId, args: [{ accountId: 1, appointmentId: 21 }] }));
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const file = saveHistory("appointmentWorkflow-clock-behind", history);
  console.log(`appointmentWorkflow: ${history.events?.length} events with a clock behind written to ${file}`);
}
