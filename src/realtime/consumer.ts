import type { Knex } from "knex";
import { joinSql, sql } from "../db/sql";
import { Batch } from "../db/batch";
import { Message } from "../models/Message";
import { messagePushEventData, type MessageConversation } from "../presenters/message";
import { BatchReads, type EventConsumer, type EventRow } from "../events/outbox";
import { loadSenders } from "../conversations/messageSenders";
import { logger } from "../lib/logger";
import { BROADCAST_NOTICE_PREFIX, REALTIME_CHANNEL } from "./notices";
import { RESUME_WINDOW } from "./presence";

const log = logger.child({ component: "realtime" });

/**
 * The relay's realtime consumer: it turns committed events into broadcasts in Chatwoot's shape
 * (docs/realtime.md) and notifies every API process, which pushes them to its /cable
 * subscribers (broadcaster.ts). Being a relay consumer, an event committed while no relay or no API
 * process ran is broadcast once one does, like a webhook.
 */

type Json = Record<string, unknown>;

export interface Broadcast {
  eventId: number;
  accountId: number;
  inboxId: number | null;
  name: string;
  data: Json;
  toInbox: boolean;
  toAccount: boolean;
  contactToken: string | null;
  exceptToken: string | null;
}

/** Conversation#push_event_data is its webhook_data without the account (and an event's own keys). */
export function conversationPushData(webhookData: Json): Json {
  const { account: _account, event: _event, changed_attributes: _changed, ...push } = webhookData;
  return push;
}

const contactTokenOf = (conversation: Json | undefined) =>
  ((conversation?.contact_inbox as Json | null | undefined)?.pubsub_token as string | undefined) ?? null;

function contactPushData(webhookData: Json): Json {
  const { account: _account, event: _event, changed_attributes: _changed, avatar: _avatar, ...push } = webhookData;
  return { ...push, type: "contact" };
}

/** The broadcasts an event makes, but messages' data (which planMessages reads from the database). */
function broadcastsOf(event: EventRow): Broadcast[] {
  const payload = event.payload;
  const base = {
    eventId: event.id,
    accountId: event.account_id,
    inboxId: event.inbox_id,
    toInbox: false,
    toAccount: false,
    contactToken: null,
    exceptToken: null,
  };
  const withAccount = (data: Json) => ({ ...data, account_id: event.account_id });
  switch (event.name) {
    case "conversation_created":
    case "conversation_status_changed":
    case "conversation_updated": {
      const data = withAccount(conversationPushData(payload));
      const list: Broadcast[] = [{ ...base, name: event.name.replace("_", "."), data, toInbox: true, contactToken: contactTokenOf(payload) }];
      const changed = ((payload.changed_attributes as Json[] | null) ?? []).flatMap((change) => Object.keys(change));
      if (event.name === "conversation_updated" && changed.includes("assignee_id")) list.push({ ...base, name: "assignee.changed", data, toInbox: true });
      if (event.name === "conversation_updated" && changed.includes("team_id")) list.push({ ...base, name: "team.changed", data, toInbox: true });
      return list;
    }
    case "conversation_read":
      return [{ ...base, name: "conversation.read", data: withAccount(conversationPushData(payload)), toInbox: true }];
    case "conversation_typing": {
      const data = withAccount({ conversation: conversationPushData(payload.conversation as Json), user: payload.user, is_private: payload.is_private });
      const name = payload.status === "on" ? "conversation.typing_on" : "conversation.typing_off";
      return [
        {
          ...base,
          name,
          data,
          toInbox: true,
          contactToken: contactTokenOf(payload.conversation as Json),
          exceptToken: (payload.actor_token as string) ?? null,
        },
      ];
    }
    case "contact_created":
    case "contact_updated":
      return [{ ...base, name: event.name.replace("_", "."), data: withAccount(contactPushData(payload)), toAccount: true }];
    case "notification_created":
    case "notification_updated":
    case "notification_deleted": {
      // To the one user: their pubsub token names their own subscriptions.
      const { pubsub_token: token, ...data } = payload;
      return [{ ...base, name: event.name.replace("_", "."), data: withAccount(data), contactToken: (token as string) ?? null }];
    }
    case "message_created":
    case "message_updated": {
      const conversation = payload.conversation as Json;
      // Private notes and activity messages are the agents' alone.
      const forContact = !payload.private && payload.message_type !== "activity";
      return [{ ...base, name: event.name.replace("_", "."), data: {}, toInbox: true, contactToken: forContact ? contactTokenOf(conversation) : null }];
    }
    default:
      return [];
  }
}

/**
 * An event whose payload cannot be read as expected makes no broadcast rather than fail the plan:
 * a failing plan would hold the event's webhooks back with it.
 */
function safeBroadcastsOf(event: EventRow): Broadcast[] {
  try {
    return broadcastsOf(event);
  } catch (err) {
    log.warn({ err, event_id: event.id, event: event.name }, "no realtime broadcast for an unreadable event");
    return [];
  }
}

/** What a message's push_event_data shows of its conversation, from the conversation's webhook_data in the event. */
function messageConversationOf(conversation: Json): MessageConversation {
  const assignee = (conversation.meta as Json | undefined)?.assignee as Json | null | undefined;
  const assigneeType = (conversation.meta as Json | undefined)?.assignee_type;
  return {
    displayId: conversation.id as number,
    assigneeId: assigneeType === "User" && assignee ? (assignee.id as number) : null,
    unreadCount: (conversation.unread_count as number) ?? 0,
    lastActivityAt: new Date(((conversation.last_activity_at as number) ?? 0) * 1000),
    sourceId: ((conversation.contact_inbox as Json | null)?.source_id as string | undefined) ?? null,
  };
}

/**
 * Message#push_event_data of the batch's message events, read as they are now: the webhook payload
 * lacks columns the push shows (status, sender ids, the integer type).
 */
async function planMessages(db: Knex, events: EventRow[], broadcasts: Broadcast[]): Promise<Broadcast[]> {
  const ofMessages = broadcasts.filter((b) => b.name === "message.created" || b.name === "message.updated");
  if (!ofMessages.length) return broadcasts;
  const eventsById = new Map(events.map((event) => [event.id, event]));
  const ids = [...new Set(ofMessages.map((b) => eventsById.get(b.eventId)!.payload.id as number))];
  const messages = await Message.query(db).whereIn("id", ids);
  const byId = new Map(messages.map((message) => [message.id, message]));
  const byAccount = new Map<number, Message[]>();
  for (const message of messages) byAccount.set(message.account_id, [...(byAccount.get(message.account_id) ?? []), message]);
  const senders = new Map<number, Awaited<ReturnType<typeof loadSenders>> extends Map<number, infer S> ? S : never>();
  for (const [accountId, list] of byAccount) for (const [id, sender] of await loadSenders(db, accountId, list)) senders.set(id, sender);
  return broadcasts.flatMap((broadcast) => {
    if (!ofMessages.includes(broadcast)) return [broadcast];
    const payload = eventsById.get(broadcast.eventId)!.payload;
    const message = byId.get(payload.id as number);
    const conversation = payload.conversation;
    // A message deleted since has nothing to show; a payload without its conversation cannot be addressed.
    if (!message || !conversation || typeof conversation !== "object") return [];
    const data = messagePushEventData(message, messageConversationOf(conversation as Json), senders.get(message.id) ?? null);
    return [{ ...broadcast, data: { ...data, account_id: broadcast.accountId } }];
  });
}

/** Ids a notice names at most: 300 bigints and their commas stay well within NOTIFY's limit. */
const NOTICE_IDS = 300;

/** Writes the batch's broadcasts and notifies the API processes of them, in one statement. */
async function writeBroadcasts(db: Knex, broadcasts: Broadcast[]): Promise<void> {
  if (!broadcasts.length) return;
  const rows = broadcasts.map(
    (b) =>
      sql`(${b.eventId}, ${b.accountId}, ${b.inboxId}, ${b.name}, ${JSON.stringify(b.data)}::jsonb, ${b.toInbox}, ${b.toAccount}, ${b.contactToken}, ${b.exceptToken})`,
  );
  // A data-modifying CTE runs whatever the outer query reads; each notice names a chunk of the ids
  // (NOTIFY's payload is limited to 8000 bytes), and a second plan of the same events inserts and
  // notifies nothing. Without a transaction, the notices go out as the statement commits.
  await Batch.rowsOf(
    db,
    sql`with written as (
      insert into realtime_broadcasts (event_id, account_id, inbox_id, name, data, to_inbox, to_account, contact_token, except_token)
      values ${joinSql(rows, ", ")} on conflict (event_id, name) do nothing returning id
    ), chunked as (select id, (row_number() over (order by id) - 1) / ${NOTICE_IDS} as chunk from written)
    select pg_notify(${REALTIME_CHANNEL}, ${BROADCAST_NOTICE_PREFIX} || string_agg(id::text, ',' order by id)) from chunked group by chunk`,
  );
}

/**
 * The accounts of these events that someone may receive broadcasts in: a subscriber online, or one
 * whose connection ended within the resume window (it may come back for what it missed). A broadcast
 * in any other account would reach nobody, so it is not written (most accounts of an API
 * integration never have a subscriber).
 */
function listenedAccountsSql(events: EventRow[]) {
  const accounts = [...new Set(events.map((event) => event.account_id))];
  return sql`select distinct account_id from realtime_presence
    where account_id = any(${accounts}::int[]) and expires_at > now() - ${RESUME_WINDOW}::interval`;
}

const accountIdsOf = (rows: { account_id: number }[]) => new Set(rows.map((row) => Number(row.account_id)));

export function realtimeConsumer(): EventConsumer {
  const listened = new BatchReads<Set<number>>();
  return {
    read(batch, events) {
      listened.keep(events, batch.rows<{ account_id: number }>(listenedAccountsSql(events)).then(accountIdsOf));
    },
    async plan(db, events) {
      const accounts = await listened.of(events, () => Batch.rowsOf<{ account_id: number }>(db, listenedAccountsSql(events)).then(accountIdsOf));
      const heard = events.filter((event) => accounts.has(event.account_id));
      if (!heard.length) return;
      await writeBroadcasts(db, await planMessages(db, heard, heard.flatMap(safeBroadcastsOf)));
    },
    // Planning broadcast it: nothing waits on Temporal.
    async dispatch() {},
  };
}
