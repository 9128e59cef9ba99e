import { BaseModel } from "./BaseModel";

/** A saved reply an agent inserts by its short code (Chatwoot's CannedResponse). */
export class CannedResponse extends BaseModel {
  static tableName = "canned_responses";

  account_id!: number;
  short_code!: string;
  content!: string;
}
