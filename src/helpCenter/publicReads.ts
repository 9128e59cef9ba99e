import { NotFound } from "../errors";
import { Article } from "../models/Article";
import { Portal } from "../models/Portal";
import { User } from "../models/User";
import { ARTICLES_PER_PAGE, inCategorySlug, matchingText } from "./articles";

/** The portal a public page names; an archived portal is gone for its readers, as Chatwoot's find_by!(archived: false). */
export async function publicPortal(slug: string): Promise<Portal> {
  const portal = await Portal.query().findOne({ slug, archived: false });
  if (!portal) throw NotFound();
  return portal;
}

export interface PublicArticleFilters {
  locale: string;
  query?: string;
  sort?: "views" | "position";
  page?: number;
  category_slug?: string;
}

export interface PublicArticleList {
  articles: Article[];
  count: number;
}

/** Published articles of the portal in the locale, by position or by views; `query` searches their text. */
export async function publicArticles(portal: Portal, filters: PublicArticleFilters): Promise<PublicArticleList> {
  const query = Article.query().where({ portal_id: portal.id, status: "published", locale: filters.locale });
  inCategorySlug(query, filters.category_slug);
  matchingText(query, filters.query);
  const count = await query.clone().resultSize();
  const articles = await query
    .orderByRaw(filters.sort === "views" ? "views DESC, id" : "position ASC NULLS LAST, id")
    .limit(ARTICLES_PER_PAGE)
    .offset(((filters.page ?? 1) - 1) * ARTICLES_PER_PAGE);
  return { articles, count };
}

/** A published article by its slug, its view counted (one atomic increment per read, so concurrent readers all count). */
export async function readPublishedArticle(portal: Portal, slug: string): Promise<Article> {
  // Through knex: a model patch would move updated_at, which readers see as the article's last update.
  const [row] = await Article.knex()("articles").where({ portal_id: portal.id, slug, status: "published" }).increment("views", 1).returning("*");
  if (!row) throw NotFound();
  return Article.fromDatabaseJson(row);
}

/** The authors of the given articles, by id. */
export async function authorsOf(articles: Article[]): Promise<Map<number, User>> {
  const ids = [...new Set(articles.flatMap((a) => (a.author_id ? [a.author_id] : [])))];
  const users = ids.length ? await User.query().findByIds(ids) : [];
  return new Map(users.map((user) => [user.id, user]));
}
