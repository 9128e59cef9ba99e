import { BaseModel } from "./BaseModel";

/** Which notification types a member has e-mailed and pushed to them (Chatwoot's NotificationSetting flags, by name). */
export class NotificationSetting extends BaseModel {
  static tableName = "notification_settings";

  declare account_id: number;
  declare user_id: number;
  declare selected_email_flags: string[];
  declare selected_push_flags: string[];
}
