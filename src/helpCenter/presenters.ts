import type { Article } from "../models/Article";
import type { Category } from "../models/Category";
import type { Inbox } from "../models/Inbox";
import type { Member } from "../models/InboxMember";
import type { Portal } from "../models/Portal";
import type { User } from "../models/User";
import { presentInboxMember, presentInboxSlim } from "../presenters/inbox";
import { iso, unixSeconds } from "../presenters/time";
import { avatarUrlOf } from "../services/avatars";

export interface PortalCounts {
  articles: { locale: string; status: string; author_id: number | null; count: number }[];
  categories: { locale: string; count: number }[];
}

const sum = (rows: { count: number }[]) => rows.reduce((total, row) => total + row.count, 0);

export interface PortalView {
  counts: PortalCounts;
  inbox?: Inbox;
  /** Counts of the articles in this locale only (portals#show with `locale`). */
  locale?: string;
  /** The caller, for mine_articles_count. */
  userId?: number;
}

/** api/v1/accounts/portals/_portal: the record, its locales with their counts, and article counts by status. */
export function presentPortal(portal: Portal, { counts, inbox, locale, userId }: PortalView) {
  const articles = locale ? counts.articles.filter((row) => row.locale === locale) : counts.articles;
  const withStatus = (status: string) => sum(articles.filter((row) => row.status === status));
  return {
    id: portal.id,
    color: portal.color,
    custom_domain: portal.custom_domain,
    header_text: portal.header_text,
    homepage_link: portal.homepage_link,
    name: portal.name,
    page_title: portal.page_title,
    slug: portal.slug,
    archived: portal.archived,
    account_id: portal.account_id,
    config: {
      allowed_locales: portal.config.allowed_locales.map((code) => ({
        code,
        articles_count: sum(counts.articles.filter((row) => row.locale === code)),
        categories_count: sum(counts.categories.filter((row) => row.locale === code)),
      })),
      default_locale: portal.config.default_locale,
    },
    ...(inbox ? { inbox: presentInboxSlim(inbox) } : {}),
    meta: {
      all_articles_count: sum(articles),
      archived_articles_count: withStatus("archived"),
      published_count: withStatus("published"),
      draft_articles_count: withStatus("draft"),
      ...(userId ? { mine_articles_count: sum(articles.filter((row) => row.author_id === userId)) } : {}),
      categories_count: sum(counts.categories),
      default_locale: portal.config.default_locale,
    },
  };
}

/** api/v1/accounts/categories/_category, with its article count. */
export function presentCategory(category: Category, articlesCount: number) {
  return {
    id: category.id,
    name: category.name,
    slug: category.slug,
    locale: category.locale,
    description: category.description,
    position: category.position,
    account_id: category.account_id,
    portal_id: category.portal_id,
    meta: { articles_count: articlesCount },
  };
}

export function presentPublicCategory(category: Category, articlesCount: number) {
  const { account_id: _account, portal_id: _portal, ...rest } = presentCategory(category, articlesCount);
  return rest;
}

const articleCategory = (category: Category | undefined) =>
  category ? { id: category.id, name: category.name, slug: category.slug, locale: category.locale } : null;

/** api/v1/accounts/articles/_article: the author as an agent of the account (left out once they left it). */
export function presentArticle(article: Article, { category, author }: { category?: Category; author?: Member }) {
  return {
    id: article.id,
    slug: article.slug,
    title: article.title,
    content: article.content,
    description: article.description,
    status: article.status,
    locale: article.locale,
    position: article.position,
    account_id: article.account_id,
    updated_at: unixSeconds(article.updated_at),
    meta: article.meta,
    category: articleCategory(category),
    views: article.views,
    ...(author ? { author: presentInboxMember(author) } : {}),
    associated_articles: [],
  };
}

/** public/api/v1/models/hc/_portal: what a portal page shows. */
export function presentPublicPortal(portal: Portal) {
  return {
    id: portal.id,
    name: portal.name,
    slug: portal.slug,
    color: portal.color,
    custom_domain: portal.custom_domain,
    header_text: portal.header_text,
    homepage_link: portal.homepage_link,
    page_title: portal.page_title,
    config: { allowed_locales: portal.config.allowed_locales, default_locale: portal.config.default_locale },
  };
}

/** public/api/v1/models/_article: a published article with its portal, category and author's public name. */
export function presentPublicArticle(article: Article, portal: Portal, { category, author }: { category?: Category; author?: User }) {
  return {
    id: article.id,
    slug: article.slug,
    category_id: article.category_id,
    title: article.title,
    content: article.content,
    description: article.description,
    status: article.status,
    locale: article.locale,
    account_id: article.account_id,
    last_updated_at: iso(article.updated_at)!,
    views: article.views,
    category: articleCategory(category),
    ...(author ? { author: { name: author.name, available_name: author.availableName, thumbnail: avatarUrlOf(author) } } : {}),
    associated_articles: [],
    portal: presentPublicPortal(portal),
  };
}
