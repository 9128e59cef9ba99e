import { createHash } from "node:crypto";
import type { Knex } from "knex";
import type { DeliveryTargetType } from "../models/WebhookDelivery";
import { statusTransitionEventOf } from "./events";

/** An event row as the relay reads it. */
export interface EventRow {
  id: number;
  account_id: number;
  name: string;
  payload: Record<string, unknown>;
  inbox_id: number | null;
  conversation_id: number | null;
  created_at: Date;
  /** Failed hand-overs so far (the relay's backoff). */
  dispatch_attempts?: number;
}

export interface DeliveryTarget {
  type: DeliveryTargetType;
  id: number;
  url: string;
  webhookId: number | null;
  /** The event name the target receives (bots also get conversation_resolved and conversation_opened). */
  eventName: string;
}

/** Events that also go to the API inbox's webhook_url (Chatwoot's deliver_webhook_payloads). */
const INBOX_EVENTS = new Set(["conversation_created", "conversation_status_changed", "conversation_updated", "message_created", "message_updated", "webwidget_triggered"]);
/** Events agent bots receive (AgentBotListener); conversation_created is not one of them. */
const BOT_EVENTS = new Set(["conversation_status_changed", "conversation_updated", "message_created", "message_updated", "webwidget_triggered"]);

/** AgentBotListener also tells bots when a conversation is resolved or opened. */
function botEventNames(event: EventRow): string[] {
  const transition = event.name === "conversation_status_changed" ? statusTransitionEventOf(event.payload.status) : null;
  return transition ? [event.name, transition] : [event.name];
}

/** Where an event goes, per reference/chatwoot.md sections 1.1 and 2. */
export async function targetsOf(db: Knex, event: EventRow): Promise<DeliveryTarget[]> {
  const targets: DeliveryTarget[] = [];

  const webhooks: { id: number; url: string }[] = await db("webhooks")
    .where("account_id", event.account_id)
    .whereRaw("? = ANY(subscriptions)", [event.name])
    .orderBy("id")
    .select("id", "url");
  for (const webhook of webhooks) targets.push({ type: "account_webhook", id: webhook.id, url: webhook.url, webhookId: webhook.id, eventName: event.name });

  if (event.inbox_id && INBOX_EVENTS.has(event.name)) {
    const inbox = await db("inboxes")
      .join("channel_api", "channel_api.id", "inboxes.channel_id")
      .where({ "inboxes.id": event.inbox_id, "inboxes.channel_type": "Channel::Api", "inboxes.account_id": event.account_id })
      .whereNotNull("channel_api.webhook_url")
      .whereNot("channel_api.webhook_url", "")
      .first("inboxes.id", "channel_api.webhook_url");
    if (inbox) targets.push({ type: "api_inbox", id: inbox.id, url: inbox.webhook_url, webhookId: null, eventName: event.name });
  }

  if (event.inbox_id && BOT_EVENTS.has(event.name)) {
    const botIds = new Set<number>();
    const inboxBot = await db("agent_bot_inboxes").where({ inbox_id: event.inbox_id, status: "active" }).first("agent_bot_id");
    if (inboxBot) botIds.add(inboxBot.agent_bot_id);
    if (event.conversation_id && event.name !== "webwidget_triggered") {
      const conversation = await db("conversations").where("id", event.conversation_id).first("assignee_agent_bot_id");
      if (conversation?.assignee_agent_bot_id) botIds.add(conversation.assignee_agent_bot_id);
    }
    const bots: { id: number; outgoing_url: string | null }[] = botIds.size
      ? await db("agent_bots").whereIn("id", [...botIds]).orderBy("id").select("id", "outgoing_url")
      : [];
    for (const bot of bots) {
      if (!bot.outgoing_url) continue;
      for (const eventName of botEventNames(event)) targets.push({ type: "agent_bot", id: bot.id, url: bot.outgoing_url, webhookId: null, eventName });
    }
  }
  return targets;
}

/**
 * The delivery id is derived from (event, target), so planning the same event twice (a relay that
 * died before marking it dispatched) names the same delivery and the same workflow: never a duplicate.
 */
export function deliveryIdFor(eventId: number, target: Pick<DeliveryTarget, "type" | "id" | "eventName">): string {
  const hex = createHash("sha256").update(`${eventId}:${target.type}:${target.id}:${target.eventName}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The key that signs deliveries to a target: the webhook's, the API channel's or the bot's secret. */
export async function secretOf(db: Knex, type: DeliveryTargetType, id: number): Promise<string | undefined> {
  switch (type) {
    case "account_webhook":
      return (await db("webhooks").where("id", id).first("secret"))?.secret;
    case "api_inbox":
      return (await db("inboxes").join("channel_api", "channel_api.id", "inboxes.channel_id").where("inboxes.id", id).first("channel_api.secret"))?.secret;
    case "agent_bot":
      return (await db("agent_bots").where("id", id).first("secret"))?.secret;
  }
}
