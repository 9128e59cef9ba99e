import Router from "@koa/router";
import type { Database } from "../db";
import { PROBE_DEADLINE_MS, probeDependencies } from "../infra/dependencyProbes";
import { metrics, outboxState } from "../lib/metrics";
import { listeningRelays } from "../events/relay";
import { parkedState } from "../events/parked";
import type { AppCustomContext, AppState } from "../http/context";
import { openApiDocument } from "../openapi/registry";

export const DEFAULT_OUTBOX_MAX_AGE_SECONDS = 120;

/**
 * What health says of the event flow: whether a relay listens, how old the oldest waiting event is,
 * and what is parked. Parked events are one account's or one event's problem, shown for an operator
 * to re-drive; they do not make the service unhealthy, as the events behind them still flow.
 */
interface EventFlow {
  relay: "listening" | "not listening" | "unknown";
  outbox:
    | {
        backlog: number;
        oldest_undispatched_age_seconds: number;
        parked: number;
        oldest_parked?: { event_id: number; account_id: number; event: string; age_seconds: number; error: string | null };
      }
    | "unknown";
}

async function eventFlow(knex: Database): Promise<EventFlow> {
  try {
    const [relays, outbox, parked] = await Promise.all([listeningRelays(knex), outboxState(knex), parkedState(knex)]);
    const { oldest } = parked;
    return {
      relay: relays > 0 ? "listening" : "not listening",
      outbox: {
        backlog: outbox.backlog,
        oldest_undispatched_age_seconds: Math.floor(outbox.oldestAgeSeconds),
        parked: parked.count,
        ...(oldest
          ? {
              oldest_parked: {
                event_id: oldest.id,
                account_id: oldest.account_id,
                event: oldest.name,
                age_seconds: Math.floor(parked.oldestAgeSeconds),
                error: oldest.error,
              },
            }
          : {}),
      },
    };
  } catch {
    return { relay: "unknown", outbox: "unknown" };
  }
}

export interface ServiceRouteOptions {
  /** Past this age of the oldest undispatched event, events have stopped flowing and health says 503. */
  outboxMaxAgeSeconds?: number;
}

/** Unauthenticated service endpoints: health, metrics and the OpenAPI document. */
export function serviceRoutes(options: ServiceRouteOptions = {}) {
  const router = new Router<AppState, AppCustomContext>();
  const maxAge = options.outboxMaxAgeSeconds ?? DEFAULT_OUTBOX_MAX_AGE_SECONDS;

  router.get("/health", async (ctx) => {
    const client = ctx.deps.temporal.client;
    const [{ database, temporal }, flow] = await Promise.all([
      probeDependencies(ctx.deps),
      Promise.race([
        eventFlow(ctx.deps.knex),
        new Promise<EventFlow>((resolve) => setTimeout(() => resolve({ relay: "unknown", outbox: "unknown" }), PROBE_DEADLINE_MS).unref()),
      ]),
    ]);
    // Events flow when some relay listens and nothing has waited longer than a hand-over should take.
    const flowing = flow.relay === "listening" && flow.outbox !== "unknown" && flow.outbox.oldest_undispatched_age_seconds <= maxAge;
    const healthy = database && temporal && flowing;
    ctx.status = healthy ? 200 : 503;
    ctx.body = {
      status: healthy ? "ok" : "degraded",
      database: database ? "ok" : "unreachable",
      temporal: temporal ? "ok" : "unreachable",
      events: flowing ? "flowing" : "stalled",
      relay: flow.relay,
      outbox: flow.outbox,
      // Which histories are ours: one namespace may serve several installations (docs/production.md).
      installation: ctx.deps.temporal.installationId,
      temporal_namespace: client.options.namespace,
      task_queue: ctx.deps.temporal.taskQueue,
    };
  });

  router.get("/metrics", async (ctx) => {
    ctx.type = metrics.contentType;
    ctx.body = await metrics.metrics();
  });

  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get("/api-docs/openapi.json", (ctx) => {
    document ??= openApiDocument();
    ctx.body = document;
  });

  return router;
}
