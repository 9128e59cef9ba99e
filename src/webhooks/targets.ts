import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { isIn, sql } from "../db/sql";
import { Batch } from "../db/batch";
import type { DeliveryTargetType } from "../models/WebhookDelivery";
import { statusTransitionEventOf, type EventRow } from "../events/outbox";

export interface DeliveryTarget {
  type: DeliveryTargetType;
  id: number;
  url: string;
  webhookId: number | null;
  /** The event name the target receives (bots also get conversation_resolved and conversation_opened). */
  eventName: string;
}

/** Events that also go to the API inbox's webhook_url (Chatwoot's deliver_webhook_payloads). */
const INBOX_EVENTS = new Set([
  "conversation_created",
  "conversation_status_changed",
  "conversation_updated",
  "message_created",
  "message_updated",
  "webwidget_triggered",
]);
/** Events agent bots receive (AgentBotListener); conversation_created is not one of them. */
const BOT_EVENTS = new Set(["conversation_status_changed", "conversation_updated", "message_created", "message_updated", "webwidget_triggered"]);

/** AgentBotListener also tells bots when a conversation is resolved or opened. */
function botEventNames(event: EventRow): string[] {
  const transition = event.name === "conversation_status_changed" ? statusTransitionEventOf(event.payload.status) : null;
  return transition ? [event.name, transition] : [event.name];
}

/**
 * Where each event of a batch goes, per docs/events-and-webhooks.md: subscribed account
 * webhooks, the API inbox's webhook_url, and the inbox's or the conversation's agent bot. A few
 * set-based statements for the whole batch, queued on `batch` (the relay's, shared by every
 * consumer's reads); the answer comes once the batch has run.
 */
export function queueTargets(batch: Batch, events: EventRow[]): Promise<Map<number, DeliveryTarget[]>> {
  const accountIds = [...new Set(events.map((e) => e.account_id))];
  const inboxIds = [...new Set(events.flatMap((e) => (e.inbox_id ? [e.inbox_id] : [])))];
  const conversationIds = [...new Set(events.flatMap((e) => (e.conversation_id ? [e.conversation_id] : [])))];
  // Prepared statements: id lists by isIn, so a batch's size does not change a text, and a batch of
  // one reuses its statement's plan.
  const none = Promise.resolve([]);
  const loads = Promise.all([
    batch.rows<{ id: number; account_id: number; url: string; subscriptions: string[] }>(
      sql`select id, account_id, url, subscriptions from webhooks where ${isIn("account_id", accountIds)} order by id`,
    ),
    inboxIds.length
      ? batch.rows<{ id: number; account_id: number; webhook_url: string }>(
          sql`select inboxes.id, inboxes.account_id, channel_api.webhook_url from inboxes join channel_api on channel_api.id = inboxes.channel_id
            where ${isIn("inboxes.id", inboxIds)} and inboxes.channel_type = 'Channel::Api' and coalesce(channel_api.webhook_url, '') <> ''`,
        )
      : none,
    inboxIds.length
      ? batch.rows<{ inbox_id: number; agent_bot_id: number; outgoing_url: string | null }>(
          sql`select agent_bot_inboxes.inbox_id, agent_bot_inboxes.agent_bot_id, agent_bots.outgoing_url
            from agent_bot_inboxes join agent_bots on agent_bots.id = agent_bot_inboxes.agent_bot_id
            where ${isIn("agent_bot_inboxes.inbox_id", inboxIds)} and agent_bot_inboxes.status = 'active'`,
        )
      : none,
    conversationIds.length
      ? batch.rows<{ id: number; assignee_agent_bot_id: number; outgoing_url: string | null }>(
          sql`select conversations.id, conversations.assignee_agent_bot_id, agent_bots.outgoing_url
            from conversations join agent_bots on agent_bots.id = conversations.assignee_agent_bot_id where ${isIn("conversations.id", conversationIds)}`,
        )
      : none,
  ] as const);
  return loads.then(([webhooks, apiInboxes, inboxBots, conversationBots]) => {
    const botUrl = new Map([
      ...inboxBots.map((b) => [b.agent_bot_id, b.outgoing_url] as const),
      ...conversationBots.map((c) => [c.assignee_agent_bot_id, c.outgoing_url] as const),
    ]);
    const apiInbox = new Map(apiInboxes.map((inbox) => [inbox.id, inbox]));
    const inboxBot = new Map(inboxBots.map((b) => [b.inbox_id, b.agent_bot_id]));
    const conversationBot = new Map(conversationBots.map((c) => [c.id, c.assignee_agent_bot_id]));

    const targets = new Map<number, DeliveryTarget[]>();
    for (const event of events) {
      const list: DeliveryTarget[] = [];
      for (const webhook of webhooks) {
        if (webhook.account_id === event.account_id && webhook.subscriptions.includes(event.name)) {
          list.push({ type: "account_webhook", id: webhook.id, url: webhook.url, webhookId: webhook.id, eventName: event.name });
        }
      }
      const inbox = event.inbox_id && INBOX_EVENTS.has(event.name) ? apiInbox.get(event.inbox_id) : undefined;
      if (inbox && inbox.account_id === event.account_id)
        list.push({ type: "api_inbox", id: inbox.id, url: inbox.webhook_url, webhookId: null, eventName: event.name });
      if (event.inbox_id && BOT_EVENTS.has(event.name)) {
        const ids = new Set<number>();
        const ofInbox = inboxBot.get(event.inbox_id);
        if (ofInbox) ids.add(ofInbox);
        const ofConversation = event.conversation_id && event.name !== "webwidget_triggered" ? conversationBot.get(event.conversation_id) : undefined;
        if (ofConversation) ids.add(ofConversation);
        for (const botId of [...ids].sort((a, b) => a - b)) {
          const url = botUrl.get(botId);
          if (!url) continue;
          for (const eventName of botEventNames(event)) list.push({ type: "agent_bot", id: botId, url, webhookId: null, eventName });
        }
      }
      targets.set(event.id, list);
    }
    return targets;
  });
}

/** queueTargets in a batch of its own: events whose reads the relay's batch did not cover. */
export async function targetsOfEvents(db: Knex, events: EventRow[]): Promise<Map<number, DeliveryTarget[]>> {
  const batch = new Batch(db);
  const targets = queueTargets(batch, events);
  await batch.run();
  return targets;
}

/**
 * The delivery id is derived from (event, target), so planning the same event twice (a relay that
 * died before marking it dispatched) names the same delivery and the same workflow: never a duplicate.
 * It hashes the event's random uid, not its number, which a restored database hands out again.
 */
export function deliveryIdFor(eventUid: string, target: Pick<DeliveryTarget, "type" | "id" | "eventName">): string {
  const hex = createHash("sha256").update(`${eventUid}:${target.type}:${target.id}:${target.eventName}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The key that signs deliveries to a target (the webhook's, the API channel's or the bot's secret),
 * as an SQL expression over the webhook_deliveries row aliased `alias`, so an attempt reads it with
 * its delivery in one statement.
 */
export function deliverySecretSql(alias: string): string {
  return `CASE ${alias}.target_type
    WHEN 'account_webhook' THEN (SELECT secret FROM webhooks WHERE id = ${alias}.target_id)
    WHEN 'api_inbox' THEN (SELECT channel_api.secret FROM inboxes JOIN channel_api ON channel_api.id = inboxes.channel_id WHERE inboxes.id = ${alias}.target_id)
    WHEN 'agent_bot' THEN (SELECT secret FROM agent_bots WHERE id = ${alias}.target_id)
  END`;
}
