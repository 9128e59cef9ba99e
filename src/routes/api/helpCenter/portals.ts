import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { headOk } from "../../../http/headOk";
import { authorize, requireAdministrator } from "../../../policies";
import type { AppContext } from "../../../http/context";
import { portalResponse } from "../../../helpCenter/schemas";
import { archivePortal, createPortal, destroyPortal, findPortal, listPortals, updatePortal } from "../../../helpCenter/portals";
import { presentOnePortal, presentPortals } from "../../../helpCenter/portalViews";
import { portalBody, portalListQuery, portalListResponse, portalParams, portalQuery } from "./schema";

const member = (ctx: AppContext) => authorize(ctx, "administrator", "agent");

/** Chatwoot's PortalsController: every member reads the account's portals, administrators manage them. */
export function registerPortalRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/portals";
  const one = `${path}/:portal_slug`;

  router.route(
    {
      authorize: member,
      method: "get",
      path,
      summary: "List the account's help center portals",
      params: accountParams,
      query: portalListQuery,
      response: portalListResponse,
    },
    async (ctx, { query }) => {
      const portals = await listPortals(ctx.state.account!.id);
      ctx.body = {
        payload: await presentPortals(ctx.deps.knex, portals, { userId: ctx.state.membership!.user_id }),
        meta: { current_page: query.page ?? 1, portals_count: portals.length },
      };
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "post", path, summary: "Create a portal", params: accountParams, body: portalBody, response: portalResponse },
    async (ctx, { body }) => {
      const portal = await createPortal(ctx.state.account!.id, body);
      ctx.body = await presentOnePortal(ctx.deps.knex, portal, { userId: ctx.state.membership!.user_id });
    },
  );

  router.route(
    {
      authorize: member,
      method: "get",
      path: one,
      summary: "Show a portal by its slug; `locale` narrows the article counts",
      params: portalParams,
      query: portalQuery,
      response: portalResponse,
    },
    async (ctx, { params, query }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      ctx.body = await presentOnePortal(ctx.deps.knex, portal, { locale: query.locale, userId: ctx.state.membership!.user_id });
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: one,
      summary: "Update a portal",
      params: portalParams,
      body: portalBody,
      response: portalResponse,
    },
    async (ctx, { params, body }) => {
      const portal = await updatePortal(await findPortal(ctx.state.account!.id, params.portal_slug), body);
      ctx.body = await presentOnePortal(ctx.deps.knex, portal, { userId: ctx.state.membership!.user_id });
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: one, summary: "Delete a portal with its categories and articles", params: portalParams },
    async (ctx, { params }) => {
      await destroyPortal(await findPortal(ctx.state.account!.id, params.portal_slug));
      headOk(ctx);
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "post", path: `${one}/archive`, summary: "Archive a portal: its public pages are gone", params: portalParams },
    async (ctx, { params }) => {
      await archivePortal(await findPortal(ctx.state.account!.id, params.portal_slug));
      headOk(ctx);
    },
  );
}
