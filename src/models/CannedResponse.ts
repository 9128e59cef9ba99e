import { BaseModel } from "./BaseModel";

/** A saved reply an agent inserts by its short code (Chatwoot's CannedResponse). */
export class CannedResponse extends BaseModel {
  static tableName = "canned_responses";

  declare account_id: number;
  declare short_code: string;
  declare content: string;
}
