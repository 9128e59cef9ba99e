import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { httpUrl, id, page, wrappedUnder } from "../../../http/schemas";
import { ALLOWED_WEBHOOK_EVENTS } from "../../../models/Webhook";

const subscriptions = z
  .array(z.string().max(MAX_LENGTH.string))
  .refine((events) => events.length > 0 && events.every((e) => (ALLOWED_WEBHOOK_EVENTS as readonly string[]).includes(e)), {
    message: "Invalid events",
  });

const webhookFields = {
  url: httpUrl(),
  name: z.string().trim().max(255).nullable(),
  subscriptions,
  inbox_id: id().nullable(),
};

export const webhookCreate = z.preprocess(wrappedUnder("webhook"), z.object(webhookFields).partial().required({ url: true })).openapi("WebhookCreate");

export const webhookUpdate = z.preprocess(wrappedUnder("webhook"), z.object(webhookFields).partial()).openapi("WebhookUpdate");

export type WebhookInput = z.output<typeof webhookUpdate>;

const webhookResponse = z.object({
  id: z.number(),
  name: z.string().nullable(),
  url: z.string(),
  account_id: z.number(),
  subscriptions: z.array(z.string()),
  secret: z.string(),
  inbox: z.object({ id: z.number(), name: z.string() }).optional(),
});

export const webhookEnvelope = z.object({ payload: z.object({ webhook: webhookResponse }) }).openapi("WebhookEnvelope");
export const webhooksEnvelope = z.object({ payload: z.object({ webhooks: z.array(webhookResponse) }) }).openapi("WebhooksEnvelope");

export const deliveryParams = z.object({ account_id: id(), id: id(), delivery_id: z.string().uuid() });

const deliveryResponse = z.object({
  id: z.string(),
  event: z.string(),
  event_id: z.number(),
  url: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number(),
  last_response_code: z.number().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.number().nullable(),
  delivered_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});

export const deliveriesQuery = z.object({ page: page() });
export const deliveriesEnvelope = z
  .object({ meta: z.object({ count: z.number(), current_page: z.number() }), payload: z.array(deliveryResponse) })
  .openapi("WebhookDeliveries");
export const deliveryEnvelope = z.object({ payload: deliveryResponse }).openapi("WebhookDeliveryEnvelope");
