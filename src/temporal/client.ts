import { Client, Connection } from "@temporalio/client";

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
export function isAlreadyStarted(err: unknown): boolean {
  return (err as Error | undefined)?.name === "WorkflowExecutionAlreadyStartedError";
}
