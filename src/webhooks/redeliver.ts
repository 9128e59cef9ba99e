import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { DeliveryConfig } from "../config";
import type { AppDeps } from "../deps";
import { CouldNotProcess } from "../errors";
import { WebhookDelivery } from "../models/WebhookDelivery";
import { startOnce } from "../temporal/client";
import { webhookDeliveryWorkflowId, type DeliveryWorkflowInput } from "../temporal/contracts";
import { AccountIdAttribute, ConversationIdAttribute, EventNameAttribute, WebhookIdAttribute } from "../temporal/searchAttributes";
import { scheduleFor } from "./handOver";

/** Starts a redelivery's own workflow (operator action), under an id of its own. */
async function startRedelivery(deps: AppDeps, delivery: WebhookDelivery, config: DeliveryConfig, redelivery: number): Promise<void> {
  const event = await deps.knex("events").where("id", delivery.event_id).first("conversation_id");
  const conversation = event?.conversation_id ? await deps.knex("conversations").where("id", event.conversation_id).first("display_id") : undefined;
  const input: DeliveryWorkflowInput = { deliveryId: delivery.id, schedule: scheduleFor(config, delivery.target_type), timeoutMs: config.timeoutMs };
  await startOnce(deps, "webhookDeliveryWorkflow", {
    workflowId: webhookDeliveryWorkflowId(deps.temporal.installationId, delivery.id, redelivery),
    work: `delivery ${delivery.id}${redelivery ? ` redelivery ${redelivery}` : ""}`,
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: AccountIdAttribute, value: delivery.account_id },
      { key: EventNameAttribute, value: delivery.event_name },
      ...(delivery.webhook_id ? [{ key: WebhookIdAttribute, value: delivery.webhook_id }] : []),
      ...(conversation ? [{ key: ConversationIdAttribute, value: conversation.display_id as number }] : []),
    ],
    staticSummary: `${delivery.event_name} → ${delivery.url} (${delivery.target_type.replace("_", " ")} ${delivery.target_id}, account ${delivery.account_id}${conversation ? `, conversation #${conversation.display_id}` : ""})`,
  });
}

/** Sends the delivery again from scratch (operator action); refused while an attempt is still running. */
export async function redeliver(deps: AppDeps, delivery: WebhookDelivery): Promise<WebhookDelivery> {
  // Conditional, so two operators clicking at once start one redelivery, not two.
  const [reset] = await WebhookDelivery.query(deps.knex)
    .patch({ status: "pending", last_error: null, updated_at: new Date() })
    .where("id", delivery.id)
    .whereNot("status", "pending")
    .returning("*");
  if (!reset) throw CouldNotProcess("Delivery is still in progress");
  try {
    await startRedelivery(deps, reset, deps.settings.delivery, Date.now());
  } catch (err) {
    // Not started: put the row back, or it would stay pending and refuse every later redelivery.
    await WebhookDelivery.query(deps.knex).patch({ status: delivery.status, last_error: delivery.last_error }).where("id", delivery.id);
    throw err;
  }
  return reset;
}
