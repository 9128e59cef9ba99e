import { BaseModel } from "./BaseModel";

/** An account's label (Chatwoot's Label); conversations and contacts carry label titles. */
export class Label extends BaseModel {
  static tableName = "labels";

  account_id!: number;
  title!: string;
  description!: string | null;
  color!: string;
  show_on_sidebar!: boolean | null;
}
