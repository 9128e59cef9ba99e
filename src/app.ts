import { bodyParser } from "@koa/bodyparser";
import type Router from "@koa/router";
import Koa from "koa";
import type { RateLimits } from "./config";
import type { AppDeps } from "./deps";
import type { AppCustomContext, AppState } from "./http/context";
import "./lib/validation";
import { bodyDepthGuard } from "./middlewares/bodyDepth";
import { errorHandler } from "./middlewares/errorHandler";
import { jsonBody } from "./middlewares/jsonBody";
import { rateLimits } from "./middlewares/rateLimits";
import type { BlockedAddresses } from "./auth/blockedAddresses";
import { installRequestLogger, requestLog } from "./middlewares/requestLog";
import { watchDatabase } from "./lib/metrics";
import { accountRouter, accountScopedRouter, platformRouter } from "./routes";
import { conversationsRouter } from "./routes/api/conversationsRouter";
import { serviceRoutes } from "./routes/health";
import { schedulingRouter } from "./routes/api/scheduling/scheduling";
import { widgetRouter } from "./routes/widget/router";
import { widgetPageRouter } from "./routes/widget/page";
import { reportsRouter } from "./routes/api/reports/router";
import { serviceInfoRouter } from "./routes/api/serviceInfo/serviceInfo";
import { authRouter } from "./routes/auth/signIn";
import { publicRouter } from "./routes/public/router";
import { filesRouter } from "./routes/files/files";
import { helpCenterRouter } from "./routes/hc/router";

export interface AppOptions {
  bodyLimit?: string;
  /** Client addresses from X-Forwarded-For (the app runs behind a proxy). */
  trustProxy?: boolean;
  /** Throttles; none without them (tests, and RATE_LIMITS=off). */
  rateLimits?: RateLimits;
  /** The process's mirror of addresses blocked for failed authentication; without it each token request reads the counter. */
  blockedAddresses?: BlockedAddresses;
  /** Health turns 503 once the oldest undispatched event is older than this. */
  outboxMaxAgeSeconds?: number;
}

async function unknownRoute(ctx: Koa.Context, next: Koa.Next) {
  await next();
  if (ctx.body === undefined && ctx.status === 404) {
    ctx.status = 404;
    ctx.body = { status: 404, error: "Not Found" };
  }
}

type AppRouter = Router<AppState, AppCustomContext>;
type AppMiddleware = Koa.Middleware<AppState, AppCustomContext>;

/** A test of a path against all of a router's routes at once (always true for a router with more than routes in it). */
function takesPath(router: AppRouter): (path: string) => boolean {
  const layers = router.stack;
  if (!layers.length || layers.some((layer) => !layer.methods.length || layer.regexp.flags !== layers[0]!.regexp.flags)) return () => true;
  // A path taken by several methods is one route per method: its pattern is tested once.
  const patterns = [...new Set(layers.map((layer) => `(?:${layer.regexp.source})`))];
  const takes = new RegExp(patterns.join("|"), layers[0]!.regexp.flags);
  return (path) => takes.test(path);
}

/**
 * The routers as one middleware, each asked in turn as if each were mounted on its own: a router
 * whose routes do not take the path is passed over after one test, rather than testing its routes
 * one at a time (over a hundred before the conversations' router) inside a middleware of its own.
 */
function routing(routers: AppRouter[]): AppMiddleware {
  const gates = routers.map((router) => ({ takes: takesPath(router), dispatch: router.routes() as AppMiddleware }));
  return (ctx, next) => {
    const from = (index: number): Promise<unknown> => {
      for (let i = index; i < gates.length; i++) if (gates[i]!.takes(ctx.path)) return Promise.resolve(gates[i]!.dispatch(ctx, () => from(i + 1)));
      return next();
    };
    return from(0);
  };
}

export function createApp(deps: AppDeps, options: AppOptions = {}): Koa<AppState, AppCustomContext> {
  const app = new Koa<AppState, AppCustomContext>();
  app.context.deps = deps;
  installRequestLogger(app.context);
  watchDatabase(deps.knex);
  app.proxy = options.trustProxy ?? false;
  app.use(requestLog);
  app.use(errorHandler);
  app.use(jsonBody);
  app.use(
    bodyParser({
      enableTypes: ["json", "form"],
      parsedMethods: ["POST", "PUT", "PATCH", "DELETE"],
      jsonLimit: options.bodyLimit ?? "1mb",
      formLimit: options.bodyLimit ?? "1mb",
    }),
  );
  app.use(bodyDepthGuard);
  if (options.rateLimits) app.use(rateLimits(deps.knex, options.rateLimits, options.blockedAddresses));

  app.use(
    routing([
      serviceRoutes({ outboxMaxAgeSeconds: options.outboxMaxAgeSeconds }),
      serviceInfoRouter().koa,
      authRouter().koa,
      platformRouter().koa,
      accountRouter().koa,
      accountScopedRouter().koa,
      conversationsRouter().koa,
      schedulingRouter().koa,
      widgetRouter().koa,
      reportsRouter().koa,
      publicRouter().koa,
      helpCenterRouter().koa,
      filesRouter(),
      widgetPageRouter(),
    ]),
  );
  // No allowedMethods(): Rails answers an unknown method (TRACE, PROPFIND, ...) or a method a path
  // does not take as it answers an unknown route, with its public exceptions app's 404.
  app.use(unknownRoute);
  return app;
}
