import { BaseModel } from "./BaseModel";

/** An account's label (Chatwoot's Label); conversations and contacts carry label titles. */
export class Label extends BaseModel {
  static tableName = "labels";

  declare account_id: number;
  declare title: string;
  declare description: string | null;
  declare color: string;
  declare show_on_sidebar: boolean | null;
}
