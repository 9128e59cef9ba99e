import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type WorkflowStartOptions } from "@temporalio/client";
import type { AppDeps } from "../deps";
import { currentRequestId } from "../lib/logger";

/** gRPC's RESOURCE_EXHAUSTED. */
const RESOURCE_EXHAUSTED = 8;

/**
 * The SDK's retries, except that a workflow that is closing (or busy) is asked again after 100 ms
 * rather than a second: a webhook lane closes at the end of its span (or, if started before spans,
 * each time it continues as new), and the relay's signal to it must not hold back every event behind
 * it for that long. Other RESOURCE_EXHAUSTED answers
 * (rate limits) keep the SDK's longer wait.
 */
const retries = defaultGrpcRetryOptions({
  initialIntervalMs: ({ code, details }) =>
    code === RESOURCE_EXHAUSTED && !/workflow is closing|busy workflow|workflow is busy/i.test(details ?? "") ? 1000 : 100,
});

export async function connectTemporalClient(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address, interceptors: [makeGrpcRetryInterceptor(retries)] });
  return new Client({ connection, namespace });
}

/** True when the Temporal frontend answers for our namespace; used by the health check. */
export async function temporalIsReachable(client: Client): Promise<boolean> {
  try {
    await client.workflowService.describeNamespace({ namespace: client.options.namespace });
    return true;
  } catch {
    return false;
  }
}

function isAlreadyStarted(err: unknown): boolean {
  return (err as Error | undefined)?.name === "WorkflowExecutionAlreadyStartedError";
}

/** The memo that says which piece of work a run is, so a repeated start can tell its own run from a stranger's. */
interface WorkMemo {
  installation: string;
  work: string;
}

/** A workflow id is held by a run that is not the work we asked for: never a silent success. */
export class WorkflowIdTakenError extends Error {
  constructor(workflowId: string, found: unknown) {
    super(`Workflow id ${workflowId} is held by other work (${JSON.stringify(found ?? null)}), not by this installation's`);
    this.name = "WorkflowIdTakenError";
  }
}

/**
 * Starts a workflow on the installation's task queue under its business id. A run that already
 * holds the id (or held it, under REJECT_DUPLICATE) counts as success only when its memo names the
 * same installation and the same `work`; anything else throws, so the caller retries and reports.
 */
export async function startOnce(
  deps: AppDeps,
  workflowType: string,
  options: Omit<WorkflowStartOptions, "taskQueue" | "memo"> & { work: string },
): Promise<void> {
  const { work, ...start } = options;
  const memo: WorkMemo = { installation: deps.temporal.installationId, work };
  try {
    // A run started while serving a request names it, so its history leads back to the request's log lines.
    const requestId = currentRequestId();
    await deps.temporal.client.workflow.start(workflowType, {
      ...start,
      memo: { ...memo, ...(requestId ? { request_id: requestId } : {}) },
      taskQueue: deps.temporal.taskQueue,
    });
  } catch (err) {
    if (!isAlreadyStarted(err)) throw err;
    const found = (await deps.temporal.client.workflow.getHandle(start.workflowId).describe()).memo as Partial<WorkMemo> | undefined;
    if (found?.installation !== memo.installation || found?.work !== memo.work) throw new WorkflowIdTakenError(start.workflowId, found);
  }
}
