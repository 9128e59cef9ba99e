import { Client, Connection, type WorkflowStartOptions } from "@temporalio/client";
import type { AppDeps } from "../deps";

export async function connectTemporalClient(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address });
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

/** Starting a workflow whose business id already runs is not an error for us: the work is in hand. */
function isAlreadyStarted(err: unknown): boolean {
  return (err as Error | undefined)?.name === "WorkflowExecutionAlreadyStartedError";
}

/**
 * Starts a workflow on the service's task queue under its business id. A run that already holds the
 * id (or held it, under REJECT_DUPLICATE) means the work is in hand, so a repeated start is success.
 */
export async function startOnce(deps: AppDeps, workflowType: string, options: Omit<WorkflowStartOptions, "taskQueue">): Promise<void> {
  try {
    await deps.temporal.client.workflow.start(workflowType, { ...options, taskQueue: deps.temporal.taskQueue });
  } catch (err) {
    if (!isAlreadyStarted(err)) throw err;
  }
}
