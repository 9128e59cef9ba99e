import { BaseModel } from "./BaseModel";

/** A portal's category in one locale; its slug is unique per portal and locale. */
export class Category extends BaseModel {
  static tableName = "categories";

  declare account_id: number;
  declare portal_id: number;
  declare name: string;
  declare slug: string;
  declare locale: string;
  declare description: string | null;
  declare position: number | null;
}
