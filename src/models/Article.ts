import { BaseModel } from "./BaseModel";

export const ARTICLE_STATUSES = ["draft", "published", "archived"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** A help center article; only published ones are read on the public portal. */
export class Article extends BaseModel {
  static tableName = "articles";

  declare account_id: number;
  declare portal_id: number;
  declare category_id: number | null;
  declare author_id: number | null;
  declare title: string;
  declare slug: string;
  declare content: string;
  declare description: string | null;
  declare status: ArticleStatus;
  declare locale: string;
  declare position: number | null;
  declare views: number;
  declare meta: Record<string, unknown>;
}
