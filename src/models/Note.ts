import { BaseModel } from "./BaseModel";

export class Note extends BaseModel {
  static tableName = "notes";

  declare account_id: number;
  declare contact_id: number;
  declare user_id: number | null;
  declare content: string;
}
