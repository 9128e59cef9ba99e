import { NotFound } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { findIntegrationApp, INTEGRATION_APPS } from "../../../models/IntegrationApp";
import { requireAdministrator } from "../../../policies";
import { presentApps } from "./present";
import { appParams, appResponse, appsResponse } from "./schema";

/** Integrations::AppsController: administrators only (check_admin_authorization?). */
export function registerIntegrationAppRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/integrations/apps";

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path,
      summary: "The integration apps this service supports, with the account's hooks of each",
      params: accountParams,
      response: appsResponse,
    },
    async (ctx) => {
      ctx.body = { payload: await presentApps(ctx.state.account!.id, INTEGRATION_APPS) };
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "get", path: `${path}/:id`, summary: "One integration app", params: appParams, response: appResponse },
    async (ctx, { params }) => {
      const app = findIntegrationApp(params.id);
      if (!app) throw NotFound();
      [ctx.body] = await presentApps(ctx.state.account!.id, [app]);
    },
  );
}
