import { BaseModel } from "./BaseModel";

/** Every event a webhook may subscribe to (Chatwoot's ALLOWED_WEBHOOK_EVENTS). */
export const ALLOWED_WEBHOOK_EVENTS = [
  "conversation_status_changed",
  "conversation_updated",
  "conversation_created",
  "contact_created",
  "contact_updated",
  "message_created",
  "message_updated",
  "webwidget_triggered",
  "inbox_created",
  "inbox_updated",
  "conversation_typing_on",
  "conversation_typing_off",
  "appointment.created",
  "appointment.updated",
  "appointment.cancelled",
  "appointment.completed",
  "appointment.no_show",
  "appointment.rescheduled",
  "appointment.reminder_sent",
  "appointment.deleted",
] as const;

/** What a webhook created without subscriptions gets: the first eight, as Chatwoot's column default. */
export const DEFAULT_SUBSCRIPTIONS = ALLOWED_WEBHOOK_EVENTS.slice(0, 8);

export class Webhook extends BaseModel {
  static tableName = "webhooks";

  declare account_id: number;
  declare inbox_id: number | null;
  declare name: string | null;
  declare url: string;
  declare subscriptions: string[];
  declare secret: string;
}
