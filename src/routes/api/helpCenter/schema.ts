import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { blankAsAbsent, id, idOrAbsent, optionalId, optionalOneOf, page, wrappedUnder } from "../../../http/schemas";
import { ARTICLE_STATUSES } from "../../../models/Article";
import { localeCode, portalResponse, categoryResponse, articleResponse } from "../../../helpCenter/schemas";

const text = z.string().max(MAX_LENGTH.string);
const nullableText = z.string().max(MAX_LENGTH.string).nullable();

const portalFields = z
  .object({
    name: text.trim(),
    slug: text.trim(),
    color: nullableText,
    custom_domain: nullableText,
    header_text: nullableText,
    homepage_link: nullableText,
    page_title: nullableText,
    archived: z.boolean(),
    config: z.object({ default_locale: localeCode().optional(), allowed_locales: z.array(localeCode()).max(50).optional() }),
  })
  .partial();

/** Chatwoot's portal_params under `portal` (or bare), and the live chat widget's inbox at the top level. */
export const portalBody = z
  .preprocess(
    (body) => {
      if (!body || typeof body !== "object") return body;
      const record = body as Record<string, unknown>;
      return { ...(wrappedUnder("portal")(body) as object), inbox_id: record.inbox_id };
    },
    portalFields.extend({ inbox_id: optionalId().optional() }),
  )
  .openapi("PortalInput");
export type PortalInput = z.output<typeof portalBody>;

export const portalParams = z.object({ account_id: id(), portal_slug: text });
export const portalQuery = z.object({ locale: blankAsAbsent(localeCode()) });
export const portalListQuery = z.object({ page: page().optional() });

export const portalListResponse = z.object({ payload: z.array(portalResponse), meta: z.object({ current_page: z.number(), portals_count: z.number() }) });

export const categoryBody = z
  .preprocess(
    wrappedUnder("category"),
    z
      .object({
        name: text.trim(),
        slug: text.trim(),
        locale: localeCode(),
        description: z.string().max(MAX_LENGTH.text).nullable(),
        position: z.number().int().min(0).max(1_000_000).nullable(),
      })
      .partial(),
  )
  .openapi("CategoryInput");
export type CategoryInput = z.output<typeof categoryBody>;

export const categoryListQuery = z.object({ locale: blankAsAbsent(localeCode()), page: page().optional() });
export const portalChildParams = z.object({ account_id: id(), portal_slug: text, id: id() });
export const categoryPayload = z.object({ payload: categoryResponse });
export const categoryListResponse = z.object({
  payload: z.array(categoryResponse),
  meta: z.object({ current_page: z.number(), categories_count: z.number() }),
});

export const articleBody = z
  .preprocess(
    wrappedUnder("article"),
    z
      .object({
        title: text.trim(),
        content: z.string().max(MAX_LENGTH.message),
        description: z.string().max(MAX_LENGTH.text).nullable(),
        status: z.enum(ARTICLE_STATUSES),
        locale: localeCode(),
        position: z.number().int().min(0).max(1_000_000).nullable(),
        category_id: optionalId(),
        author_id: optionalId(),
        slug: text.trim(),
        meta: z.record(z.string(), z.string().max(MAX_LENGTH.text)),
      })
      .partial(),
  )
  .openapi("ArticleInput");
export type ArticleInput = z.output<typeof articleBody>;

export const articleListQuery = z.object({
  page: page().optional(),
  locale: blankAsAbsent(localeCode()),
  category_slug: blankAsAbsent(text),
  status: optionalOneOf(ARTICLE_STATUSES),
  author_id: idOrAbsent().optional(),
  query: blankAsAbsent(text),
});
export type ArticleListQuery = z.output<typeof articleListQuery>;

export const articlePayload = z.object({ payload: articleResponse });
export const articleListResponse = z.object({
  payload: z.array(articleResponse),
  meta: z.object({
    current_page: z.number(),
    articles_count: z.number(),
    all_articles_count: z.number(),
    archived_articles_count: z.number(),
    published_count: z.number(),
    draft_articles_count: z.number(),
    mine_articles_count: z.number(),
  }),
});
