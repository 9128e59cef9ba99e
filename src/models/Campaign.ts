import { BaseModel } from "./BaseModel";

export interface AudienceItem {
  type: string;
  id: number;
}

/** An account's campaign (Chatwoot's Campaign): ongoing on a website inbox, one-off (sent to an audience at a time) elsewhere. */
export class Campaign extends BaseModel {
  static tableName = "campaigns";
  static jsonAttributes = ["audience", "trigger_rules"];

  declare account_id: number;
  declare display_id: number;
  declare title: string;
  declare description: string | null;
  declare message: string;
  declare enabled: boolean;
  declare campaign_type: "ongoing" | "one_off";
  declare campaign_status: "active" | "completed";
  declare scheduled_at: Date | null;
  declare audience: AudienceItem[];
  declare trigger_rules: Record<string, unknown>;
  declare trigger_only_during_business_hours: boolean;
  declare sender_id: number | null;
  declare inbox_id: number;
}
