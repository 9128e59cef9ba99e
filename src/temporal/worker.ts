import { NativeConnection, Worker } from "@temporalio/worker";
import { createActivities } from "../../activities";
import type { AppDeps } from "../deps";

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: AppDeps;
  /** A prebuilt workflow bundle (see bundleWorkflowCode); without one the worker bundles at start. */
  workflowBundlePath?: string;
}

/** A worker that runs this project's workflows and activities on one task queue. */
export const WORKFLOWS_PATH = require.resolve("../../workflows");

export async function createWorker({ address, namespace, taskQueue, deps, workflowBundlePath }: WorkerOptions): Promise<Worker> {
  const connection = await NativeConnection.connect({ address });
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    ...(workflowBundlePath ? { workflowBundle: { codePath: workflowBundlePath } } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities(deps),
    // The default cache grows with the heap and has crashed workers; timers for many conversations
    // live on the server, so a bounded cache costs only replays.
    maxCachedWorkflows: 1000,
    shutdownGraceTime: "10s",
  });
}
