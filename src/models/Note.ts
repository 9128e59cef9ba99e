import { BaseModel } from "./BaseModel";

export class Note extends BaseModel {
  static tableName = "notes";

  account_id!: number;
  contact_id!: number;
  user_id!: number | null;
  content!: string;
}
