import { z } from "zod";

/** A locale code as Chatwoot's LANGUAGES_CONFIG writes them: `en`, `pt_BR`, `zh-CN`. */
export const localeCode = () =>
  z
    .string()
    .trim()
    .max(10)
    .regex(/^[a-z]{2,3}(?:[_-][A-Za-z]{2,4})?$/);

const counts = {
  all_articles_count: z.number(),
  archived_articles_count: z.number(),
  published_count: z.number(),
  draft_articles_count: z.number(),
  mine_articles_count: z.number().optional(),
  categories_count: z.number(),
  default_locale: z.string(),
};

export const portalResponse = z
  .object({
    id: z.number(),
    color: z.string().nullable(),
    custom_domain: z.string().nullable(),
    header_text: z.string().nullable(),
    homepage_link: z.string().nullable(),
    name: z.string(),
    page_title: z.string().nullable(),
    slug: z.string(),
    archived: z.boolean(),
    account_id: z.number(),
    config: z.object({
      allowed_locales: z.array(z.object({ code: z.string(), articles_count: z.number(), categories_count: z.number() })),
      default_locale: z.string(),
    }),
    inbox: z.object({ id: z.number(), name: z.string() }).passthrough().optional(),
    meta: z.object(counts),
  })
  .openapi("Portal");

export const categoryResponse = z
  .object({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    locale: z.string(),
    description: z.string().nullable(),
    position: z.number().nullable(),
    account_id: z.number(),
    portal_id: z.number(),
    meta: z.object({ articles_count: z.number() }),
  })
  .openapi("Category");

const articleCategory = z.object({ id: z.number(), name: z.string(), slug: z.string(), locale: z.string() });

export const articleResponse = z
  .object({
    id: z.number(),
    slug: z.string(),
    title: z.string(),
    content: z.string(),
    description: z.string().nullable(),
    status: z.string(),
    locale: z.string(),
    position: z.number().nullable(),
    account_id: z.number(),
    updated_at: z.number(),
    meta: z.record(z.string(), z.unknown()),
    category: articleCategory.nullable(),
    views: z.number(),
    author: z.object({ id: z.number(), name: z.string() }).passthrough().optional(),
    associated_articles: z.array(z.unknown()),
  })
  .openapi("Article");

export const publicPortalResponse = z
  .object({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    color: z.string().nullable(),
    custom_domain: z.string().nullable(),
    header_text: z.string().nullable(),
    homepage_link: z.string().nullable(),
    page_title: z.string().nullable(),
    config: z.object({ allowed_locales: z.array(z.string()), default_locale: z.string() }),
  })
  .openapi("PublicPortal");

export const publicArticleResponse = z
  .object({
    id: z.number(),
    slug: z.string(),
    category_id: z.number().nullable(),
    title: z.string(),
    content: z.string(),
    description: z.string().nullable(),
    status: z.string(),
    locale: z.string(),
    account_id: z.number(),
    last_updated_at: z.string(),
    views: z.number(),
    category: articleCategory.nullable(),
    author: z.object({ name: z.string(), available_name: z.string(), thumbnail: z.string() }).optional(),
    associated_articles: z.array(z.unknown()),
    portal: publicPortalResponse,
  })
  .openapi("PublicArticle");

export const publicCategoryResponse = categoryResponse.omit({ account_id: true, portal_id: true }).openapi("PublicCategory");
