import type { Knex } from "knex";
import { type Sql, sql } from "../db/sql";
import type { EventRow } from "../events/outbox";
import type { NotificationType } from "../models/Notification";
import { exportNotifications } from "./exports";
import { firstWords, mentionedUserIds, plainMentions } from "./mentions";

type Json = Record<string, unknown>;

/** A notification to make: who gets it, of what, and what the push shows. */
export interface PlannedNotification {
  eventId: number;
  accountId: number;
  userId: number;
  type: NotificationType;
  /** The primary actor's type when it is not a conversation. */
  primaryActorType?: string;
  /** The primary actor's id: a conversation's unless primaryActorType says otherwise. */
  conversationId: number;
  primaryActorData: Json;
  secondary: { type: "Message"; id: number; data: Json } | null;
  title: string;
}

const assigneeOf = (conversation: Json): number | null => {
  const meta = conversation.meta as Json | undefined;
  const assignee = meta?.assignee as Json | null | undefined;
  return meta?.assignee_type === "User" && assignee ? Number(assignee.id) : null;
};

/** Notification#primary_actor_data: what a notification shows of its conversation. */
const primaryActorData = (conversation: Json): Json => ({ id: conversation.id, meta: conversation.meta, inbox_id: conversation.inbox_id });

/**
 * Members of the account who may see the event's conversation (its inbox's members and the
 * administrators), with their names; only those of `among` when given.
 */
async function readersOf(db: Knex, event: EventRow, among?: number[]): Promise<{ id: number; names: string[] }[]> {
  const rows: { id: string; name: string; display_name: string | null }[] = await db("account_users as au")
    .join("users as u", "u.id", "au.user_id")
    .where("au.account_id", event.account_id)
    .modify((q) => {
      if (among) q.whereIn("au.user_id", among);
    })
    .where((w) =>
      w
        .where("au.role", "administrator")
        .orWhereExists((q) => q.select(db.raw("1")).from("inbox_members as im").where("im.inbox_id", event.inbox_id).whereRaw("im.user_id = au.user_id")),
    )
    .select("u.id", "u.name", "u.display_name");
  return rows.map((row) => ({ id: Number(row.id), names: [row.name, row.display_name ?? ""] }));
}

/**
 * Chatwoot's NotificationListener: an assignment notifies the new assignee; a message notifies the
 * users a private note mentions, then the conversation's assignee, then its participants, each once
 * and never the message's own sender.
 */
export async function plannedNotifications(
  db: Knex,
  event: EventRow,
  participantsOf: (conversationId: number) => Promise<number[]>,
): Promise<PlannedNotification[]> {
  const payload = event.payload;
  if (event.name === "contact_export_completed") return exportNotifications(db, event);
  if (!event.conversation_id) return [];
  if (event.name === "conversation_updated") {
    const changed = ((payload.changed_attributes as Json[] | null) ?? []).flatMap((change) => Object.keys(change));
    const assignee = assigneeOf(payload);
    if (!changed.includes("assignee_id") || !assignee) return [];
    const readers = await readersOf(db, event);
    if (!readers.some((reader) => reader.id === assignee)) return [];
    const title = `A conversation (#${String(payload.id)}) has been assigned to you`;
    return [
      {
        eventId: event.id,
        accountId: event.account_id,
        userId: assignee,
        type: "conversation_assignment",
        conversationId: event.conversation_id,
        primaryActorData: primaryActorData(payload),
        secondary: null,
        title,
      },
    ];
  }
  if (event.name !== "message_created") return [];
  if (payload.message_type !== "incoming" && payload.message_type !== "outgoing") return [];
  const conversation = payload.conversation as Json;
  const sender = payload.sender as Json | null;
  const senderUserId = sender?.type === "user" ? Number(sender.id) : null;
  const content = typeof payload.content === "string" ? payload.content : "";
  const participants = await participantsOf(event.conversation_id);
  const assignee = assigneeOf(conversation);
  // Most messages notify nobody: only a note that may mention someone needs every reader's name.
  const mayMention = Boolean(payload.private) && /@|mention:\/\//.test(content);
  const candidates = [...(assignee ? [assignee] : []), ...participants];
  if (!mayMention && !candidates.length) return [];
  const readers = await readersOf(db, event, mayMention ? undefined : candidates);
  const secondary = {
    type: "Message" as const,
    id: Number(payload.id),
    data: { id: payload.id, content, message_type: payload.message_type, private: payload.private, sender, created_at: payload.created_at },
  };
  const base = {
    eventId: event.id,
    accountId: event.account_id,
    conversationId: event.conversation_id,
    primaryActorData: primaryActorData(conversation),
    secondary,
  };
  const display = String(conversation.id);
  const notified = new Set<number>(senderUserId ? [senderUserId] : []);
  const planned: PlannedNotification[] = [];
  const add = (userId: number | null, type: NotificationType, title: string) => {
    if (!userId || notified.has(userId) || !readers.some((reader) => reader.id === userId)) return;
    notified.add(userId);
    planned.push({ ...base, userId, type, title });
  };
  if (payload.private) {
    const title = `[#${display}] ${firstWords(plainMentions(content))}`;
    for (const userId of mentionedUserIds(content, readers)) add(userId, "conversation_mention", title);
  }
  add(assignee, "assigned_conversation_new_message", `A new message is created in conversation (#${display})`);
  for (const participant of participants) add(participant, "participating_conversation_new_message", `A new message is created in conversation (#${display})`);
  return planned;
}

/** The participants of the conversations of these events' messages, by conversation, in one statement. */
export function participantsSql(events: EventRow[]): Sql | undefined {
  const conversationIds = [
    ...new Set(events.filter((event) => event.name === "message_created" && event.conversation_id).map((event) => event.conversation_id!)),
  ];
  if (!conversationIds.length) return undefined;
  return sql`select conversation_id, user_id from conversation_participants where conversation_id = any(${conversationIds}::bigint[])`;
}

export function participantsByConversation(rows: { conversation_id: number | string; user_id: number | string }[]): Map<number, number[]> {
  const byConversation = new Map<number, number[]>();
  for (const row of rows) byConversation.set(Number(row.conversation_id), [...(byConversation.get(Number(row.conversation_id)) ?? []), Number(row.user_id)]);
  return byConversation;
}
