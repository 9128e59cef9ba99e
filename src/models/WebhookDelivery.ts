import { Model } from "objection";

export type DeliveryTargetType = "account_webhook" | "api_inbox" | "agent_bot";
export type DeliveryStatus = "pending" | "delivered" | "failed";

/** One event sent to one target, with the outcome of its latest attempt. */
export class WebhookDelivery extends Model {
  static tableName = "webhook_deliveries";

  declare id: string;
  declare account_id: number;
  declare event_id: number;
  declare event_name: string;
  declare target_type: DeliveryTargetType;
  declare target_id: number;
  declare webhook_id: number | null;
  declare url: string;
  declare status: DeliveryStatus;
  declare attempts: number;
  declare last_response_code: number | null;
  declare last_error: string | null;
  declare workflow_started_at: Date | null;
  declare last_attempt_at: Date | null;
  declare delivered_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
}
