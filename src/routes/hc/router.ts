import { ApiRouter } from "../../http/router";
import { articleCounts, listCategories } from "../../helpCenter/categories";
import { authorsOf, publicArticles, publicPortal, readPublishedArticle } from "../../helpCenter/publicReads";
import { presentPublicArticle, presentPublicCategory, presentPublicPortal } from "../../helpCenter/presenters";
import { publicArticleResponse, publicPortalResponse } from "../../helpCenter/schemas";
import { Category } from "../../models/Category";
import type { Article } from "../../models/Article";
import type { Portal } from "../../models/Portal";
import { articlePathParams, categoryPathParams, localePathParams, portalPathParams, publicArticleList, publicArticleQuery, publicCategoryList } from "./schema";

/** A page's articles with their categories and authors, read once for the list. */
async function presentList(portal: Portal, articles: Article[]) {
  const categoryIds = [...new Set(articles.flatMap((a) => (a.category_id ? [a.category_id] : [])))];
  const categories = new Map((categoryIds.length ? await Category.query().findByIds(categoryIds) : []).map((c) => [c.id, c]));
  const authors = await authorsOf(articles);
  return articles.map((a) =>
    presentPublicArticle(a, portal, {
      category: a.category_id ? categories.get(a.category_id) : undefined,
      author: a.author_id ? authors.get(a.author_id) : undefined,
    }),
  );
}

/**
 * /hc/:slug: what a help center page reads, as JSON, with no token: the portal, its published
 * articles by locale (with `query` as the search box), its categories, and one article by slug.
 * Each path also answers with a `.json` suffix, as Rails' format suffix does.
 */
export function helpCenterRouter(): ApiRouter {
  const router = new ApiRouter("/hc", { tag: "Help center (public)", security: [] });

  // The suffixed paths first: the bare ones would take "name.json" as a slug.
  for (const suffix of [".json", ""]) {
    router.route(
      {
        method: "get",
        path: `/:slug/articles/:article_slug${suffix}`,
        summary: "A published article by its slug (counts a view)",
        params: articlePathParams,
        response: publicArticleResponse,
      },
      async (ctx, { params }) => {
        const portal = await publicPortal(params.slug);
        const [json] = await presentList(portal, [await readPublishedArticle(portal, params.article_slug)]);
        ctx.body = json;
      },
    );

    for (const [path, params, summary] of [
      [
        `/:slug/:locale/articles${suffix}`,
        localePathParams,
        "Published articles in a locale (25 a page); `query` searches them, `sort=views` puts the most read first",
      ],
      [`/:slug/:locale/categories/:category_slug/articles${suffix}`, categoryPathParams, "Published articles of a category"],
    ] as const)
      router.route({ method: "get", path, summary, params, query: publicArticleQuery, response: publicArticleList }, async (ctx, input) => {
        const portal = await publicPortal(input.params.slug);
        const categorySlug = "category_slug" in input.params ? input.params.category_slug : undefined;
        const { articles, count } = await publicArticles(portal, { ...input.query, locale: input.params.locale, category_slug: categorySlug });
        ctx.body = { payload: await presentList(portal, articles), meta: { articles_count: count } };
      });

    router.route(
      {
        method: "get",
        path: `/:slug/:locale/categories${suffix}`,
        summary: "A portal's categories in a locale",
        params: localePathParams,
        response: publicCategoryList,
      },
      async (ctx, { params }) => {
        const portal = await publicPortal(params.slug);
        const categories = await listCategories(portal, params.locale);
        const counts = await articleCounts(
          ctx.deps.knex,
          categories.map((c) => c.id),
          { publishedOnly: true },
        );
        ctx.body = { payload: categories.map((c) => presentPublicCategory(c, counts.get(c.id) ?? 0)) };
      },
    );

    router.route(
      { method: "get", path: `/:slug${suffix}`, summary: "A portal's public settings", params: portalPathParams, response: publicPortalResponse },
      async (ctx, { params }) => {
        ctx.body = presentPublicPortal(await publicPortal(params.slug));
      },
    );
  }
  return router;
}
