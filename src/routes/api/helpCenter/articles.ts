import { type ApiRouter, UPDATE } from "../../../http/router";
import { headOk } from "../../../http/headOk";
import { authorize, requireAdministrator } from "../../../policies";
import type { AppContext } from "../../../http/context";
import { findPortal } from "../../../helpCenter/portals";
import { articleRelations, createArticle, destroyArticle, findArticle, listArticles, updateArticle } from "../../../helpCenter/articles";
import { presentArticle } from "../../../helpCenter/presenters";
import type { Article } from "../../../models/Article";
import { articleBody, articleListQuery, articleListResponse, articlePayload, portalChildParams, portalParams } from "./schema";

const member = (ctx: AppContext) => authorize(ctx, "administrator", "agent");

async function present(article: Article) {
  const relations = await articleRelations([article]);
  return { payload: presentArticle(article, relations(article)) };
}

/** Chatwoot's ArticlesController under a portal: members read and write articles, administrators delete them. */
export function registerArticleRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/portals/:portal_slug/articles";

  router.route(
    {
      authorize: member,
      method: "get",
      path,
      summary: "List a portal's articles (25 a page) by locale, category_slug, status, author_id or text query",
      params: portalParams,
      query: articleListQuery,
      response: articleListResponse,
    },
    async (ctx, { params, query }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      const { articles, counts } = await listArticles(portal, query, ctx.state.membership!.user_id);
      const relations = await articleRelations(articles);
      ctx.body = {
        payload: articles.map((a) => presentArticle(a, relations(a))),
        meta: {
          current_page: query.page ?? 1,
          articles_count: counts.all,
          all_articles_count: counts.all,
          archived_articles_count: counts.archived,
          published_count: counts.published,
          draft_articles_count: counts.draft,
          mine_articles_count: counts.mine,
        },
      };
    },
  );

  router.route(
    {
      authorize: member,
      method: "post",
      path,
      summary: "Create an article (a draft unless a status is given; the caller is its author unless author_id is given)",
      params: portalParams,
      body: articleBody,
      response: articlePayload,
    },
    async (ctx, { params, body }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      ctx.body = await present(await createArticle(portal, body, ctx.state.membership!.user_id));
    },
  );

  router.route(
    { authorize: member, method: "get", path: `${path}/:id`, summary: "Show an article", params: portalChildParams, response: articlePayload },
    async (ctx, { params }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      ctx.body = await present(await findArticle(portal, params.id));
    },
  );

  router.route(
    {
      authorize: member,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update an article: publish or archive it with `status`",
      params: portalChildParams,
      body: articleBody,
      response: articlePayload,
    },
    async (ctx, { params, body }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      ctx.body = await present(await updateArticle(portal, await findArticle(portal, params.id), body));
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Delete an article", params: portalChildParams },
    async (ctx, { params }) => {
      const portal = await findPortal(ctx.state.account!.id, params.portal_slug);
      await destroyArticle(await findArticle(portal, params.id));
      headOk(ctx);
    },
  );
}
