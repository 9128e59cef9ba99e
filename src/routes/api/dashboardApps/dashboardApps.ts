import { z } from "zod";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { requireMember } from "../../../policies";
import { userIdOf } from "../../../policies/conversations";
import { presentDashboardApp } from "../../../presenters/dashboardApp";
import { createDashboardApp, destroyDashboardApp, findDashboardApp, listDashboardApps, updateDashboardApp } from "../../../services/dashboardApps";
import { dashboardAppBody, dashboardAppResponse } from "./schema";

// Chatwoot's DashboardAppsController checks no policy: every member of the account manages them.
export function registerDashboardAppRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/dashboard_apps";

  router.route(
    { authorize: requireMember, method: "get", path, summary: "The account's dashboard apps", params: accountParams, response: z.array(dashboardAppResponse) },
    async (ctx) => {
      ctx.body = (await listDashboardApps(ctx.state.account!.id)).map(presentDashboardApp);
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "post",
      path,
      summary: "Add a dashboard app (frames with http(s) URLs)",
      params: accountParams,
      body: dashboardAppBody,
      response: dashboardAppResponse,
    },
    async (ctx, { body }) => {
      ctx.body = presentDashboardApp(await createDashboardApp(ctx.state.account!.id, userIdOf(ctx), body));
    },
  );

  router.route(
    { authorize: requireMember, method: "get", path: `${path}/:id`, summary: "A dashboard app", params: accountResourceParams, response: dashboardAppResponse },
    async (ctx, { params }) => {
      ctx.body = presentDashboardApp(await findDashboardApp(ctx.state.account!.id, params.id));
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Change a dashboard app's title or frames",
      params: accountResourceParams,
      body: dashboardAppBody,
      response: dashboardAppResponse,
    },
    async (ctx, { params, body }) => {
      ctx.body = presentDashboardApp(await updateDashboardApp(ctx.state.account!.id, params.id, body));
    },
  );

  router.route(
    { authorize: requireMember, method: "delete", path: `${path}/:id`, summary: "Remove a dashboard app (204)", params: accountResourceParams, status: 204 },
    async (ctx, { params }) => {
      await destroyDashboardApp(ctx.state.account!.id, params.id);
      ctx.status = 204;
    },
  );
}
