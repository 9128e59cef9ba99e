import { z } from "zod";
import { SERVICE_VERSION } from "../../../config";
import { ApiRouter } from "../../../http/router";
import { probeDependencies } from "../../../infra/dependencyProbes";

const status = z.enum(["ok", "failing"]);

const serviceInfoResponse = z.object({ version: z.string(), timestamp: z.string(), queue_services: status, data_services: status }).openapi("ServiceInfo");

/** "2026-11-24 10:00:00": Rails' to_formatted_s(:db) of the UTC time. */
function dbTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/**
 * GET /api (Chatwoot's ApiController#index): unauthenticated version and dependency status, which
 * integrations such as the n8n nodes call to check that a base URL is a Chatwoot. Temporal is this
 * service's queue, as Redis is Chatwoot's.
 */
export function serviceInfoRouter(): ApiRouter {
  const router = new ApiRouter("", { tag: "Service", security: [] });
  router.route({ method: "get", path: "/api", summary: "Service version and dependency status", response: serviceInfoResponse }, async (ctx) => {
    const { database, temporal } = await probeDependencies(ctx.deps);
    ctx.body = {
      version: SERVICE_VERSION,
      timestamp: dbTimestamp(new Date()),
      queue_services: temporal ? "ok" : "failing",
      data_services: database ? "ok" : "failing",
    };
  });
  return router;
}
