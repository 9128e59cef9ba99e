import type { Knex } from "knex";
import type { QueryBuilder } from "objection";
import { NotFound, ValidationError, type AttributeError, fullMessage } from "../errors";
import { definedOnly } from "../lib/objects";
import { AccountUser } from "../models/AccountUser";
import { Article } from "../models/Article";
import { Category } from "../models/Category";
import { loadMembers, type Member } from "../models/InboxMember";
import type { Portal } from "../models/Portal";
import type { ArticleInput, ArticleListQuery } from "../routes/api/helpCenter/schema";
import { parameterize, prefixTsQuery } from "./slugs";

export const ARTICLES_PER_PAGE = 25;

const SEARCHED_TEXT = "to_tsvector('simple', coalesce(articles.title, '') || ' ' || coalesce(articles.description, '') || ' ' || articles.content)";

/** Articles whose title, description or content has words starting with each word of `query`. */
export function matchingText(query: QueryBuilder<Article, Article[]>, text: string | undefined): void {
  const tsQuery = text ? prefixTsQuery(text) : undefined;
  if (tsQuery) query.whereRaw(`${SEARCHED_TEXT} @@ to_tsquery('simple', ?)`, [tsQuery]);
}

/** The best matches first, as pg_search orders its results by rank (no order when there is no text). */
export function byTextRank(query: QueryBuilder<Article, Article[]>, text: string | undefined): void {
  const tsQuery = text ? prefixTsQuery(text) : undefined;
  if (tsQuery) query.orderByRaw(`ts_rank(${SEARCHED_TEXT}, to_tsquery('simple', ?)) DESC`, [tsQuery]);
}

export function inCategorySlug(query: QueryBuilder<Article, Article[]>, categorySlug: string | undefined): void {
  if (categorySlug) query.whereIn("category_id", Category.query().select("id").where("slug", categorySlug));
}

export interface ArticlePage {
  articles: Article[];
  counts: { all: number; archived: number; published: number; draft: number; mine: number };
}

/** Chatwoot's Article.search: locale, category, author and text narrow the list; the counts are by status before `status` narrows it. */
export async function listArticles(portal: Portal, filters: ArticleListQuery, userId: number): Promise<ArticlePage> {
  const base = Article.query().where("articles.portal_id", portal.id);
  if (filters.locale) base.where("locale", filters.locale);
  if (filters.author_id) base.where("author_id", filters.author_id);
  inCategorySlug(base, filters.category_slug);
  matchingText(base, filters.query);
  const rows = (await base
    .clone()
    .clearSelect()
    .groupBy("status")
    .select("status")
    .select(Article.raw("count(*) as count, count(*) FILTER (WHERE author_id = ?) as mine", [userId]))) as unknown as {
    status: string;
    count: string;
    mine: string;
  }[];
  const byStatus = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
  const counts = {
    all: rows.reduce((total, row) => total + Number(row.count), 0),
    archived: byStatus("archived"),
    published: byStatus("published"),
    draft: byStatus("draft"),
    mine: rows.reduce((total, row) => total + Number(row.mine), 0),
  };
  if (filters.status) base.where("status", filters.status);
  const articles = await base
    .orderByRaw("position ASC NULLS LAST, updated_at DESC, id")
    .limit(ARTICLES_PER_PAGE)
    .offset(((filters.page ?? 1) - 1) * ARTICLES_PER_PAGE);
  return { articles, counts };
}

export async function findArticle(portal: Portal, id: number): Promise<Article> {
  const article = await Article.query().findOne({ portal_id: portal.id, id });
  if (!article) throw NotFound();
  return article;
}

/** Each article's category and author (as an agent of the account), read once for a whole list. */
export async function articleRelations(articles: Article[], db?: Knex) {
  const categoryIds = [...new Set(articles.flatMap((a) => (a.category_id ? [a.category_id] : [])))];
  const authorIds = [...new Set(articles.flatMap((a) => (a.author_id ? [a.author_id] : [])))];
  const categories = categoryIds.length ? await Category.query(db).findByIds(categoryIds) : [];
  const members = articles.length ? await loadMembers(articles[0]!.account_id, authorIds, db) : [];
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  const memberById = new Map<number, Member>(members.map((m) => [m.user.id, m]));
  return (article: Article) => ({
    category: article.category_id ? categoryById.get(article.category_id) : undefined,
    author: article.author_id ? memberById.get(article.author_id) : undefined,
  });
}

async function validate(portal: Portal, attributes: Partial<Article>): Promise<Category | undefined> {
  const errors: AttributeError[] = [];
  if (!attributes.title?.trim()) errors.push({ attribute: "title", message: fullMessage("title", "can't be blank") });
  if (!attributes.content?.trim()) errors.push({ attribute: "content", message: fullMessage("content", "can't be blank") });
  if (!attributes.slug) errors.push({ attribute: "slug", message: fullMessage("slug", "can't be blank") });
  const category = attributes.category_id ? await Category.query().findOne({ portal_id: portal.id, id: attributes.category_id }) : undefined;
  if (attributes.category_id && !category) errors.push({ attribute: "category", message: fullMessage("category", "must exist") });
  if (attributes.author_id && !(await AccountUser.query().findOne({ account_id: portal.account_id, user_id: attributes.author_id })))
    errors.push({ attribute: "author", message: fullMessage("author", "must exist") });
  if (attributes.locale && !portal.config.allowed_locales.includes(attributes.locale))
    errors.push({ attribute: "locale", message: fullMessage("locale", "is not part of the portal's locales") });
  else if (attributes.locale && category && category.locale !== attributes.locale)
    errors.push({ attribute: "locale", message: fullMessage("locale", "must be the category's locale") });
  if (errors.length) throw new ValidationError(errors);
  return category;
}

/** Chatwoot's slug for a new article: the creation time and the parameterized title, unique in practice; the unique index decides. */
const newSlug = (title: string) => `${Math.floor(Date.now() / 1000)}-${parameterize(title)}`;

export async function createArticle(portal: Portal, input: ArticleInput, callerId: number): Promise<Article> {
  const { slug, ...fields } = definedOnly(input);
  const attributes: Partial<Article> = {
    status: "draft",
    ...fields,
    author_id: fields.author_id ?? callerId,
    slug: slug ? parameterize(slug) : newSlug(input.title ?? ""),
  };
  const category = await validate(portal, attributes);
  attributes.locale ??= category?.locale ?? portal.config.default_locale;
  return Article.query()
    .insert({ ...attributes, account_id: portal.account_id, portal_id: portal.id })
    .returning("*");
}

/** A move to another category takes that category's locale unless a locale is given; an article's locale is always its category's. */
export async function updateArticle(portal: Portal, current: Article, input: ArticleInput): Promise<Article> {
  const changes: Partial<Article> = definedOnly(input);
  if (changes.slug !== undefined) changes.slug = parameterize(changes.slug);
  if (changes.category_id && !changes.locale) changes.locale = (await Category.query().findOne({ portal_id: portal.id, id: changes.category_id }))?.locale;
  await validate(portal, { ...current, ...changes });
  const updated = await Article.query().patchAndFetchById(current.id, changes);
  if (!updated) throw NotFound();
  return updated;
}

export async function destroyArticle(article: Article): Promise<void> {
  await Article.query().deleteById(article.id);
}
