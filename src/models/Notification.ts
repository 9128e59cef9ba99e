import { BaseModel } from "./BaseModel";

export const NOTIFICATION_TYPES = [
  "conversation_creation",
  "conversation_assignment",
  "assigned_conversation_new_message",
  "conversation_mention",
  "participating_conversation_new_message",
] as const;
/** Notifications of the service's own jobs (no Chatwoot push or e-mail flag: Chatwoot e-mails these). */
export const JOB_NOTIFICATION_TYPES = ["contact_export_completed"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number] | (typeof JOB_NOTIFICATION_TYPES)[number];

/** One item of a user's notifications in an account (Chatwoot's Notification); its primary actor is a conversation, or a data export. */
export class Notification extends BaseModel {
  static tableName = "notifications";

  declare account_id: number;
  declare user_id: number;
  declare notification_type: NotificationType;
  declare primary_actor_type: string;
  declare primary_actor_id: number;
  declare secondary_actor_type: string | null;
  declare secondary_actor_id: number | null;
  declare primary_actor_data: Record<string, unknown>;
  declare secondary_actor_data: Record<string, unknown> | null;
  declare push_message_title: string;
  declare read_at: Date | null;
  declare snoozed_until: Date | null;
  declare last_activity_at: Date;
  declare meta: Record<string, unknown>;
  declare event_id: number;
}
