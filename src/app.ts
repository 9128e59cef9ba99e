import { bodyParser } from "@koa/bodyparser";
import Koa from "koa";
import type { AppDeps } from "./deps";
import type { AppCustomContext, AppState } from "./http/context";
import "./lib/validation";
import { errorHandler } from "./middlewares/errorHandler";
import { accountRouter, accountScopedRouter, platformRouter } from "./routes";
import { conversationsRouter } from "./routes/api/conversations/router";
import { serviceRoutes } from "./routes/health";
import { schedulingRouter } from "./routes/api/scheduling/scheduling";
import { widgetRouter } from "./routes/widget/router";
import { reportsRouter } from "./routes/api/reports/router";
import { serviceInfoRouter } from "./routes/api/serviceInfo/serviceInfo";
import { publicRouter } from "./routes/public/router";
import { filesRouter } from "./routes/files/files";

export interface AppOptions {
  bodyLimit?: string;
}

export function createApp(deps: AppDeps, options: AppOptions = {}): Koa<AppState, AppCustomContext> {
  const app = new Koa<AppState, AppCustomContext>();
  app.context.deps = deps;
  app.use(errorHandler);
  app.use(bodyParser({ enableTypes: ["json", "form"], parsedMethods: ["POST", "PUT", "PATCH", "DELETE"], jsonLimit: options.bodyLimit ?? "1mb", formLimit: options.bodyLimit ?? "1mb" }));

  for (const router of [serviceRoutes(), serviceInfoRouter().koa, platformRouter().koa, accountRouter().koa, accountScopedRouter().koa, conversationsRouter().koa, schedulingRouter().koa, widgetRouter().koa, reportsRouter().koa, publicRouter().koa, filesRouter()]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
