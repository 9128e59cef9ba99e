import type { Webhook } from "../models/Webhook";
import type { WebhookDelivery } from "../models/WebhookDelivery";
import { unixSeconds } from "./time";

/** app/views/api/v1/accounts/webhooks/_webhook.json.jbuilder */
export function presentWebhook(webhook: Webhook, inbox?: { id: number; name: string }) {
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    account_id: webhook.account_id,
    subscriptions: webhook.subscriptions,
    secret: webhook.secret,
    ...(inbox ? { inbox: { id: inbox.id, name: inbox.name } } : {}),
  };
}

export function presentDelivery(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    event: delivery.event_name,
    event_id: delivery.event_id,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    last_response_code: delivery.last_response_code,
    last_error: delivery.last_error,
    last_attempt_at: unixSeconds(delivery.last_attempt_at),
    delivered_at: unixSeconds(delivery.delivered_at),
    created_at: unixSeconds(delivery.created_at),
    updated_at: unixSeconds(delivery.updated_at),
  };
}
