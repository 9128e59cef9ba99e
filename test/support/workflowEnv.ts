/**
 * Workflow tests: the project's workflow bundle on a worker of its own task queue, with activities
 * the test supplies, against the suite's Temporal server. Time is real (the time-skipping test
 * server is a separate download this environment cannot fetch), so tests keep their waits short.
 */
import { randomUUID } from "node:crypto";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { DefaultLogger, Runtime, Worker } from "@temporalio/worker";
import type { Activities } from "../../activities";

let runtimeInstalled = false;

export async function workflowEnvironment(): Promise<TestWorkflowEnvironment> {
  if (!runtimeInstalled) {
    // Workflow failures the tests provoke on purpose would otherwise fill the output.
    Runtime.install({ logger: new DefaultLogger("ERROR") });
    runtimeInstalled = true;
  }
  return TestWorkflowEnvironment.createFromExistingServer({ address: process.env.TEMPORAL_ADDRESS, namespace: "default" });
}

/** Runs fn while a worker with these activities polls a fresh task queue, which fn is given. */
export async function withWorker<R>(env: TestWorkflowEnvironment, activities: Partial<Activities>, fn: (taskQueue: string) => Promise<R>): Promise<R> {
  const taskQueue = `workflow-test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: "default",
    taskQueue,
    workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
    activities,
  });
  return worker.runUntil(fn(taskQueue));
}

/** A workflow id no other test uses. */
export const uniqueId = (prefix: string) => `${prefix}-${randomUUID()}`;

/** The durations (ms) of the timers a workflow run started, in order: what it asked to sleep. */
export async function timerDurations(env: TestWorkflowEnvironment, workflowId: string): Promise<number[]> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const timeout = event.timerStartedEventAttributes?.startToFireTimeout;
    return timeout ? [Number(timeout.seconds ?? 0) * 1000 + Math.round((timeout.nanos ?? 0) / 1e6)] : [];
  });
}
