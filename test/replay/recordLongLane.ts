/**
 * Records one busy webhook lane run twice, with a mocked round activity: by the workflow code of
 * `<commit>` (webhookLaneWorkflow-long-run-before-short-runs.json, which continued as new only at
 * 1,000 history events) and by the current code (…-long-run-short-runs.json, which switches runs at
 * 200 behind patched()). Each file is the first run only, past 200 events in the older one: replaying
 * both with the current code proves that a lane run in flight across the deploy keeps its length.
 * The "before" file stands for runs from before the change; re-record it only to reproduce it:
 *
 *   TEST_DATABASE=convo_sched_record TEST_TEMPORAL_PORT=7399 npx tsx test/replay/recordLongLane.ts <commit before short runs>
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker } from "@temporalio/worker";
import { DELIVER_SIGNAL, type LaneDelivery, type LaneInput } from "../../src/temporal/contracts";
import { withTestServices } from "../support/services";
import { saveHistory } from "./historyFiles";
import { bundleWorkflowsAt, runRecorder } from "./oldWorkflows";

const SIGNALS = 90;

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
      await recordBusyLane(env, before, "before-short-runs");
      await recordBusyLane(env, readFileSync(services.workflowBundlePath, "utf8"), "short-runs");
    } finally {
      await env.teardown();
    }
  });
}

/** One delivery a signal, a little apart, so rounds and signals interleave as on a busy lane. */
async function recordBusyLane(env: TestWorkflowEnvironment, code: string, name: string) {
  const taskQueue = `record-long-lane-${name}`;
  const workflowId = `long-lane-${name}`;
  const activities = { attemptDeliveries: async () => ({}) };
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
    for (let i = 1; i < SIGNALS; i++) {
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
    const file = saveHistory(`webhookLaneWorkflow-long-run-${name}`, history);
    console.log(`${history.events?.length} events of the first run written to ${file}`);
  });
}

runRecorder("recordLongLane.ts", main);
