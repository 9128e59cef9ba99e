import { type ApiRouter, UPDATE } from "../../../http/router";
import { headOk } from "../../../http/headOk";
import { authorize, requireAdministrator } from "../../../policies";
import type { AppContext } from "../../../http/context";
import { findPortal } from "../../../helpCenter/portals";
import { articleCounts, createCategory, destroyCategory, findCategory, listCategories, updateCategory } from "../../../helpCenter/categories";
import { presentCategory } from "../../../helpCenter/presenters";
import type { Category } from "../../../models/Category";
import { categoryBody, categoryListQuery, categoryListResponse, categoryPayload, portalChildParams, portalParams } from "./schema";

const member = (ctx: AppContext) => authorize(ctx, "administrator", "agent");

async function present(ctx: AppContext, category: Category) {
  const counts = await articleCounts(ctx.deps.knex, [category.id]);
  return { payload: presentCategory(category, counts.get(category.id) ?? 0) };
}

/** Chatwoot's CategoriesController under a portal: members read, administrators manage. */
export function registerCategoryRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/portals/:portal_slug/categories";

  router.route(
    {
      authorize: member,
      method: "get",
      path,
      summary: "List a portal's categories, in one locale if given",
      params: portalParams,
      query: categoryListQuery,
      response: categoryListResponse,
    },
    async (ctx, { params, query }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      const categories = await listCategories(portal, query.locale);
      const counts = await articleCounts(
        ctx.deps.knex,
        categories.map((c) => c.id),
      );
      ctx.body = {
        payload: categories.map((c) => presentCategory(c, counts.get(c.id) ?? 0)),
        meta: { current_page: query.page ?? 1, categories_count: categories.length },
      };
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a category",
      params: portalParams,
      body: categoryBody,
      response: categoryPayload,
    },
    async (ctx, { params, body }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      ctx.body = await present(ctx, await createCategory(portal, body));
    },
  );

  router.route(
    { authorize: member, method: "get", path: `${path}/:id`, summary: "Show a category", params: portalChildParams, response: categoryPayload },
    async (ctx, { params }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      ctx.body = await present(ctx, await findCategory(portal, params.id));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a category",
      params: portalChildParams,
      body: categoryBody,
      response: categoryPayload,
    },
    async (ctx, { params, body }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      ctx.body = await present(ctx, await updateCategory(portal, await findCategory(portal, params.id), body));
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Delete a category; its articles stay", params: portalChildParams },
    async (ctx, { params }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      await destroyCategory(await findCategory(portal, params.id));
      headOk(ctx);
    },
  );
}
