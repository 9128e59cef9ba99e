import { createHmac } from "node:crypto";
import { ApplicationFailure } from "@temporalio/common";
import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import type { AppDeps } from "../deps";
import { CouldNotProcess } from "../errors";
import { safePost, UnsafeUrlError } from "../lib/safeFetch";
import { WebhookDelivery, type DeliveryTargetType } from "../models/WebhookDelivery";
import { startOnce } from "../temporal/client";
import { AccountIdAttribute, ConversationIdAttribute, EventNameAttribute, WebhookIdAttribute } from "../temporal/searchAttributes";
import { deliveryIdFor, secretOf, targetsOf, type EventRow } from "./webhookTargets";

export interface RetrySchedule {
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** How long retries go on before the delivery is given up as failed. */
  windowMs: number;
}

export interface DeliveryConfig {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Account webhooks and agent bots: at least a day of retries. */
  standard: RetrySchedule;
  /** The API inbox's webhook_url is its message transport, so it gives up within minutes and marks the message failed. */
  apiInbox: RetrySchedule;
}

const num = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback);

export function loadDeliveryConfig(env: NodeJS.ProcessEnv = process.env): DeliveryConfig {
  const initialIntervalMs = num(env.WEBHOOK_RETRY_INITIAL_MS, 1000);
  return {
    timeoutMs: num(env.WEBHOOK_TIMEOUT_MS, 5000),
    allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ? env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === "true" : env.NODE_ENV !== "production",
    standard: {
      initialIntervalMs,
      backoffCoefficient: 2,
      maximumIntervalMs: num(env.WEBHOOK_RETRY_MAX_INTERVAL_MS, 60 * 60 * 1000),
      windowMs: num(env.WEBHOOK_RETRY_WINDOW_MS, 25 * 60 * 60 * 1000),
    },
    apiInbox: {
      initialIntervalMs,
      backoffCoefficient: 2,
      maximumIntervalMs: num(env.API_INBOX_RETRY_MAX_INTERVAL_MS, 60 * 1000),
      windowMs: num(env.API_INBOX_RETRY_WINDOW_MS, 10 * 60 * 1000),
    },
  };
}

export function scheduleFor(config: DeliveryConfig, type: DeliveryTargetType): RetrySchedule {
  return type === "api_inbox" ? config.apiInbox : config.standard;
}

/** Writes one delivery row per target of the event; planning an event again changes nothing. */
export async function planDeliveries(db: Knex, event: EventRow): Promise<void> {
  const targets = await targetsOf(db, event);
  if (!targets.length) return;
  await db("webhook_deliveries")
    .insert(
      targets.map((target) => ({
        id: deliveryIdFor(event.id, target),
        account_id: event.account_id,
        event_id: event.id,
        event_name: target.eventName,
        target_type: target.type,
        target_id: target.id,
        webhook_id: target.webhookId,
        url: target.url,
      })),
    )
    .onConflict(["event_id", "target_type", "target_id", "event_name"])
    .ignore();
}

export interface DeliveryWorkflowInput {
  deliveryId: string;
  schedule: RetrySchedule;
  timeoutMs: number;
}

/**
 * Starts the delivery's workflow. The first start for a delivery rejects duplicates, so however often
 * the relay hands it over, the event is sent once; a redelivery runs under an id of its own.
 */
export async function startDeliveryWorkflow(deps: AppDeps, delivery: WebhookDelivery, config: DeliveryConfig, redelivery?: number): Promise<void> {
  const event = await deps.knex("events").where("id", delivery.event_id).first("conversation_id");
  const conversation = event?.conversation_id ? await deps.knex("conversations").where("id", event.conversation_id).first("display_id") : undefined;
  const input: DeliveryWorkflowInput = { deliveryId: delivery.id, schedule: scheduleFor(config, delivery.target_type), timeoutMs: config.timeoutMs };
  await startOnce(deps, "webhookDeliveryWorkflow", {
    workflowId: `webhook-delivery-${delivery.id}${redelivery ? `-redelivery-${redelivery}` : ""}`,
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: AccountIdAttribute, value: delivery.account_id },
      { key: EventNameAttribute, value: delivery.event_name },
      ...(delivery.webhook_id ? [{ key: WebhookIdAttribute, value: delivery.webhook_id }] : []),
      ...(conversation ? [{ key: ConversationIdAttribute, value: conversation.display_id as number }] : []),
    ],
    staticSummary: `${delivery.event_name} → ${delivery.url} (${delivery.target_type.replace("_", " ")})`,
  });
  await WebhookDelivery.query(deps.knex).patch({ workflow_started_at: new Date() }).where("id", delivery.id).whereNull("workflow_started_at");
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
    await startDeliveryWorkflow(deps, reset, loadDeliveryConfig(), Date.now());
  } catch (err) {
    // Not started: put the row back, or it would stay pending and refuse every later redelivery.
    await WebhookDelivery.query(deps.knex).patch({ status: delivery.status, last_error: delivery.last_error }).where("id", delivery.id);
    throw err;
  }
  return reset;
}

/** The failure type that tells Temporal to stop retrying a delivery. */
export const PERMANENT_FAILURE = "PermanentDeliveryFailure";

function sign(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** A 4xx means the receiver will not take it, except 408 and 429 which ask us to come back. */
function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429 || status < 400;
}

/**
 * One attempt: POST the event's payload, signed, and record the outcome on the delivery row.
 * Throws on failure so Temporal retries on the delivery's schedule (or stops, for a permanent one).
 */
export async function attemptDelivery(db: Knex, config: Pick<DeliveryConfig, "allowPrivateNetworks">, input: DeliveryWorkflowInput): Promise<{ status: number }> {
  const delivery = await WebhookDelivery.query(db).findById(input.deliveryId);
  if (!delivery) throw ApplicationFailure.nonRetryable(`Delivery ${input.deliveryId} no longer exists`, PERMANENT_FAILURE);
  if (delivery.status === "delivered") return { status: delivery.last_response_code ?? 200 };
  const event = await db("events").where("id", delivery.event_id).first("payload");
  const body = JSON.stringify({ ...event.payload, event: delivery.event_name });
  const secret = await secretOf(db, delivery.target_type, delivery.target_id);

  const record = (patch: Partial<WebhookDelivery>) =>
    WebhookDelivery.query(db)
      .patch({ ...patch, attempts: WebhookDelivery.raw("attempts + 1") as unknown as number, last_attempt_at: new Date(), updated_at: new Date() })
      .where("id", delivery.id);

  try {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await safePost(delivery.url, {
      timeoutMs: input.timeoutMs,
      allowPrivateNetworks: config.allowPrivateNetworks,
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "User-Agent": "convo-sched-webhooks",
        "X-Chatwoot-Delivery": delivery.id,
        ...(secret ? { "X-Chatwoot-Timestamp": timestamp, "X-Chatwoot-Signature": sign(secret, timestamp, body) } : {}),
      },
      body,
    });
    if (response.status >= 200 && response.status < 300) {
      await record({ status: "delivered", last_response_code: response.status, last_error: null, delivered_at: new Date() });
      return { status: response.status };
    }
    const error = `${response.status} ${response.statusText}`.trim();
    await record({ last_response_code: response.status, last_error: error });
    throw retryable(response.status) ? ApplicationFailure.retryable(error, "DeliveryFailed") : ApplicationFailure.nonRetryable(error, PERMANENT_FAILURE);
  } catch (err) {
    if (err instanceof ApplicationFailure) throw err;
    const message = err instanceof Error ? err.message : String(err);
    await record({ last_response_code: null, last_error: message });
    if (err instanceof UnsafeUrlError) throw ApplicationFailure.nonRetryable(message, PERMANENT_FAILURE);
    throw ApplicationFailure.retryable(message, "DeliveryFailed");
  }
}

/** Retries are exhausted (or the failure is permanent): the delivery is failed for good. */
export async function markDeliveryFailed(db: Knex, deliveryId: string): Promise<WebhookDelivery | undefined> {
  const [delivery] = await WebhookDelivery.query(db).patch({ status: "failed", updated_at: new Date() }).where("id", deliveryId).where("status", "pending").returning("*");
  return delivery;
}
