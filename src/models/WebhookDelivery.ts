import { Model } from "objection";

export type DeliveryTargetType = "account_webhook" | "api_inbox" | "agent_bot";
export type DeliveryStatus = "pending" | "delivered" | "failed";

/** One event sent to one target, with the outcome of its latest attempt. */
export class WebhookDelivery extends Model {
  static tableName = "webhook_deliveries";

  id!: string;
  account_id!: number;
  event_id!: number;
  event_name!: string;
  target_type!: DeliveryTargetType;
  target_id!: number;
  webhook_id!: number | null;
  url!: string;
  status!: DeliveryStatus;
  attempts!: number;
  last_response_code!: number | null;
  last_error!: string | null;
  workflow_started_at!: Date | null;
  last_attempt_at!: Date | null;
  delivered_at!: Date | null;
  created_at!: Date;
  updated_at!: Date;
}
