/**
 * Records a busy webhook lane twice, with a mocked round activity: a lane as relays started it
 * before spans, run by the workflow code of `<commit>` (webhookLaneWorkflow-busy-before-spans.json:
 * its first run, which continues as new at 1,000 history events), and a lane of a span run by the
 * current code (webhookLaneWorkflow-busy-span.json, which sends past its span's end and then ends;
 * its rounds take a while, so signals reach the lane during them). Replaying both with the current
 * code proves that a lane in flight across the deploy keeps its old path.
 * webhookLaneWorkflow-busy-span-before-overlap.json is the span lane as this script recorded it before
 * rounds overlapped (LANE_OVERLAP_PATCH), kept until that patch goes. The "before" file stands for
 * runs from before spans; re-record it only to reproduce it:
 *
 *   TEST_DATABASE=convo_sched_record TEST_TEMPORAL_PORT=7399 npx tsx test/replay/recordBusyLane.ts <commit before spans>
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker } from "@temporalio/worker";
import { DELIVER_SIGNAL, type LaneDelivery, type LaneInput } from "../../src/temporal/contracts";
import { withTestServices } from "../support/services";
import { saveHistory } from "./historyFiles";
import { bundleWorkflowsAt, runRecorder } from "./oldWorkflows";

const input: LaneInput = {
  installationId: "record",
  accountId: 1,
  webhookId: 1,
  target: "https://receiver.example/hook (account webhook 1, account 1)",
  schedule: { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 60_000, windowMs: 3_600_000 },
  timeoutMs: 5000,
  idleMs: 1000,
};

async function main(commit: string) {
  const before = await bundleWorkflowsAt(commit);
  await withTestServices(async (services) => {
    const env = await TestWorkflowEnvironment.createFromExistingServer({ address: services.temporalAddress, namespace: "default" });
    try {
      await recordBusyLane(env, before, "before-spans", input, 300);
      const current = readFileSync(services.workflowBundlePath, "utf8");
      await recordBusyLane(env, current, "span", { ...input, spanEnd: Date.now() + 1000, idleMs: 500 }, 90);
    } finally {
      await env.teardown();
    }
  });
}

/** One delivery a signal, a little apart, so rounds and signals interleave as on a busy lane. */
async function recordBusyLane(env: TestWorkflowEnvironment, code: string, name: string, input: LaneInput, signals: number) {
  const taskQueue = `record-busy-lane-${name}`;
  const workflowId = `busy-lane-${name}`;
  // About as long as a round of a few POSTs, so rounds and signals overlap.
  const activities = { attemptDeliveries: () => sleep(20).then(() => ({})) };
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: { code }, activities });
  await worker.runUntil(async () => {
    const delivery = (i: number): LaneDelivery[] => [{ id: `delivery-${i}`, eventName: "contact_created" }];
    const handle = await env.client.workflow.signalWithStart("webhookLaneWorkflow", {
      taskQueue,
      workflowId,
      args: [input],
      signal: DELIVER_SIGNAL,
      signalArgs: [delivery(0)],
    });
    for (let i = 1; i < signals; i++) {
      await sleep(15);
      await env.client.workflow.signalWithStart("webhookLaneWorkflow", {
        taskQueue,
        workflowId,
        args: [input],
        signal: DELIVER_SIGNAL,
        signalArgs: [delivery(i)],
      });
    }
    await env.client.workflow.getHandle(workflowId).result();
    const history = await env.client.workflow.getHandle(workflowId, handle.signaledRunId).fetchHistory();
    const file = saveHistory(`webhookLaneWorkflow-busy-${name}`, history);
    console.log(`${history.events?.length} events of the first run written to ${file}`);
  });
}

runRecorder("recordBusyLane.ts", main);
