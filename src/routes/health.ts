import Router from "@koa/router";
import { databaseIsReachable } from "../db";
import type { AppDeps } from "../deps";
import type { AppCustomContext, AppState } from "../http/context";
import { openApiDocument } from "../openapi/registry";
import { temporalIsReachable } from "../temporal/client";

/**
 * How long a dependency may take to answer the health check. Clients retry an unreachable Temporal
 * for many seconds, while a health check must answer promptly; a probe still silent counts as down.
 */
const PROBE_DEADLINE_MS = 3000;

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

/** Unauthenticated service endpoints: health and the OpenAPI document. */
export function serviceRoutes() {
  const router = new Router<AppState, AppCustomContext>();

  router.get("/health", async (ctx) => {
    const client = ctx.deps.temporal.client;
    const { database, temporal } = await probeDependencies(ctx.deps);
    const healthy = database && temporal;
    ctx.status = healthy ? 200 : 503;
    ctx.body = {
      status: healthy ? "ok" : "degraded",
      database: database ? "ok" : "unreachable",
      temporal: temporal ? "ok" : "unreachable",
      // Which histories are ours: one namespace may serve several installations (see README).
      installation: ctx.deps.temporal.installationId,
      temporal_namespace: client.options.namespace,
      task_queue: ctx.deps.temporal.taskQueue,
    };
  });

  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get("/api-docs/openapi.json", (ctx) => {
    document ??= openApiDocument();
    ctx.body = document;
  });

  return router;
}
