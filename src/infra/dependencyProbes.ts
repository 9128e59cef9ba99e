import { databaseIsReachable } from "../db";
import type { AppDeps } from "../deps";
import { temporalIsReachable } from "../temporal/client";

/**
 * How long a dependency may take to answer the health check. Clients retry an unreachable Temporal
 * for many seconds, while a health check must answer promptly; a probe still silent counts as down.
 */
export const PROBE_DEADLINE_MS = 3000;

async function withinDeadline(probe: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_DEADLINE_MS);
  });
  try {
    return await Promise.race([probe, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether PostgreSQL and Temporal answer, each within the probe deadline. */
export async function probeDependencies(deps: AppDeps): Promise<{ database: boolean; temporal: boolean }> {
  const client = deps.temporal.client;
  const [database, temporal] = await Promise.all([
    withinDeadline(databaseIsReachable(deps.knex)),
    // The gRPC deadline also ends the client's own retries, so no probe outlives its request.
    withinDeadline(client.connection.withDeadline(Date.now() + PROBE_DEADLINE_MS, () => temporalIsReachable(client))),
  ]);
  return { database, temporal };
}
