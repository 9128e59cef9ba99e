import { z } from "zod";
import { MAX_LENGTH } from "../../http/limits";
import { blankAsAbsent, oneOf, page } from "../../http/schemas";
import { localeCode, publicArticleResponse, publicCategoryResponse } from "../../helpCenter/schemas";

const slug = z.string().max(MAX_LENGTH.string);

export const portalPathParams = z.object({ slug });
export const localePathParams = z.object({ slug, locale: localeCode() });
export const categoryPathParams = z.object({ slug, locale: localeCode(), category_slug: slug });
export const articlePathParams = z.object({ slug, article_slug: slug });

export const publicArticleQuery = z.object({
  query: blankAsAbsent(z.string().max(MAX_LENGTH.string)),
  sort: oneOf(["position", "views"], "position"),
  page: page().optional(),
});

export const publicArticleList = z.object({ payload: z.array(publicArticleResponse), meta: z.object({ articles_count: z.number() }) });
export const publicCategoryList = z.object({ payload: z.array(publicCategoryResponse) });
