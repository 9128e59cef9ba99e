import { randomUUID } from "node:crypto";
import type { Next } from "koa";
import type { AppContext } from "../http/context";
import { logger, runInRequest, type Logger } from "../lib/logger";
import { httpDuration } from "../lib/metrics";

declare module "koa" {
  interface BaseContext {
    /** This request's logger: every line carries request_id. */
    log: Logger;
    /** X-Request-Id: the client's, or one made up here; answered in the response header. */
    requestId: string;
  }
}

/**
 * Rails' ActionDispatch::RequestId: a client's X-Request-Id is kept once stripped to word characters,
 * dashes and @ and cut to 255; a missing or empty one becomes a UUID.
 */
export function requestIdFrom(header: string | undefined): string {
  const cleaned = (header ?? "").replace(/[^\w\-@]/g, "").slice(0, 255);
  return cleaned || randomUUID();
}

/** The route template a request matched, e.g. /api/v1/accounts/:account_id/contacts/:id; bounded for metrics. */
export function routeOf(ctx: AppContext): string {
  return (ctx as { _matchedRoute?: string })._matchedRoute ?? "unmatched";
}

export function accountIdOf(ctx: AppContext): number | undefined {
  return ctx.state.account?.id;
}

/**
 * Gives every request's context its logger (`ctx.log`, whose lines carry request_id) on first use:
 * most requests write only their one line, which needs no logger of its own.
 */
export function installRequestLogger(context: object): void {
  Object.defineProperty(context, "log", {
    configurable: true,
    get(this: AppContext) {
      const log = logger.child({ request_id: this.requestId });
      Object.defineProperty(this, "log", { value: log, writable: true, configurable: true });
      return log;
    },
  });
}

/**
 * The outermost middleware: gives the request its id, runs the rest inside its scope (so services,
 * audit rows, workflow starts and their log lines find the id), and writes one line when it is
 * answered (as the request's logger would write it: request_id first).
 */
export async function requestLog(ctx: AppContext, next: Next) {
  const started = process.hrtime.bigint();
  const requestId = requestIdFrom(ctx.get("x-request-id"));
  ctx.requestId = requestId;
  ctx.set("X-Request-Id", requestId);
  try {
    await runInRequest(ctx, next);
  } finally {
    const status = ctx.status;
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    const route = routeOf(ctx);
    httpDuration.observe({ method: ctx.method, route, status: String(status) }, durationMs / 1000);
    const line = { request_id: requestId, method: ctx.method, route, path: ctx.path, status, duration_ms: durationMs, account_id: accountIdOf(ctx) };
    if (status >= 500) logger.error(line, "request failed");
    else logger.info(line, "request");
  }
}
