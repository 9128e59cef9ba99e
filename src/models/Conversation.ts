import type { Knex } from "knex";
import { isIn, Sql, sql, sqlText } from "../db/sql";
import { Batch } from "../db/batch";
import { BaseModel } from "./BaseModel";

export const CONVERSATION_STATUSES = ["open", "resolved", "pending", "snoozed"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Chatwoot shows at most this many unread incoming messages per conversation (unread_incoming_messages). */
const UNREAD_CAP = 10;

/** `id` is the database id; clients address conversations by the per-account `display_id`. */
export class Conversation extends BaseModel {
  static tableName = "conversations";
  static jsonAttributes = ["additional_attributes", "custom_attributes"];

  declare account_id: number;
  declare display_id: number;
  declare uuid: string;
  declare inbox_id: number;
  declare contact_id: number | null;
  declare contact_inbox_id: number | null;
  declare status: ConversationStatus;
  declare priority: Priority | null;
  declare assignee_id: number | null;
  declare assignee_agent_bot_id: number | null;
  declare team_id: number | null;
  declare campaign_id: number | null;
  declare muted: boolean;
  declare labels: string[];
  declare additional_attributes: Record<string, unknown>;
  declare custom_attributes: Record<string, unknown>;
  declare snoozed_until: Date | null;
  declare waiting_since: Date | null;
  declare first_reply_created_at: Date | null;
  declare last_activity_at: Date;
  declare agent_last_seen_at: Date | null;
  declare assignee_last_seen_at: Date | null;
  declare contact_last_seen_at: Date | null;
  /** The newest incoming message's created_at, written with each message (conversations/messages.ts): unread while after agent_last_seen_at. */
  declare last_incoming_at: Date | null;
  /** Written by conversation timer planning only (conversations/timers.ts). */
  declare timer_due_at: Date | null;

  static ofAccount(accountId: number, db?: Knex) {
    return Conversation.query(db).where("conversations.account_id", accountId);
  }

  /**
   * Every request on one conversation starts here: a named statement, so PostgreSQL plans it once
   * per connection rather than on every request, as it did for knex's unnamed statement.
   */
  static async findByDisplayId(accountId: number, displayId: number, db?: Knex): Promise<Conversation | undefined> {
    const [row] = await Batch.rowsOf(db ?? Conversation.knex(), sql`select * from conversations where ${Conversation.byDisplayIdSql(accountId, displayId)}`);
    return row && Conversation.fromDatabaseJson(row);
  }

  /**
   * The conversations `where` selects (with its order and limit), as models, sent in a batch. For
   * lists whose conditions are written as text: building them with knex and Objection cost more than the query.
   */
  static selectWhere(batch: Batch, where: ConversationsWhere): Promise<Conversation[]> {
    return batch.rows(sql`select conversations.* from conversations where ${where}`).then((rows) => rows.map((row) => Conversation.fromDatabaseJson(row)));
  }

  /**
   * What last_activity_at becomes when a message stamped `at` is written: never earlier than it was,
   * since a message stamped when its transaction began may commit after a newer one.
   */
  static activityAfter(at: Sql): Sql {
    return sql`greatest(conversations.last_activity_at, ${at})`;
  }

  /** findByDisplayId's condition as text, for a batch that reads the conversation with what it shows. */
  static byDisplayIdSql(accountId: number, displayId: number): Sql {
    return sql`conversations.account_id = ${accountId} and conversations.display_id = ${displayId}`;
  }

  /** Locks the row for a read-modify-write inside a transaction, so concurrent changes apply one after the other. */
  static async lock(trx: Knex.Transaction, id: number): Promise<Conversation> {
    const conversation = await Conversation.query(trx).findById(id).forUpdate();
    if (!conversation) throw new Error(`conversation ${id} vanished inside its transaction`);
    return conversation;
  }

  /** The account's next display id; the row lock of the UPDATE serialises concurrent creations. */
  static async nextDisplayId(trx: Knex.Transaction, accountId: number): Promise<number> {
    const [row] = await trx("accounts").where("id", accountId).increment("last_conversation_display_id", 1).returning("last_conversation_display_id");
    return row.last_conversation_display_id;
  }

  /** The caller has read the conversation; Chatwoot writes this with update_columns, so updated_at stays and no event fires. */
  static async markSeen(db: Knex, id: number, { byAssignee }: { byAssignee: boolean }): Promise<Conversation> {
    const now = new Date();
    await db("conversations")
      .where("id", id)
      .update({ agent_last_seen_at: now, ...(byAssignee ? { assignee_last_seen_at: now } : {}) });
    return Conversation.query(db).findById(id).throwIfNotFound();
  }

  /**
   * The unread action: seen just before the latest incoming message (never, without one), by the
   * agent and the assignee alike, so that message counts as unread again. Written like markSeen.
   */
  static async markUnread(db: Knex, id: number): Promise<void> {
    const last = await db("messages")
      .where({ conversation_id: id, message_type: 0 })
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .first<{ created_at: Date } | undefined>("created_at");
    const seenAt = last ? new Date(last.created_at.getTime() - 1000) : null;
    await db("conversations").where("id", id).update({ agent_last_seen_at: seenAt, assignee_last_seen_at: seenAt });
  }

  /**
   * False when the conversation has no incoming message the agents have not seen, as hasUnread
   * decides it; true when it may have (a Date keeps milliseconds, the row microseconds, so within
   * one millisecond only PostgreSQL can tell).
   */
  mayHaveUnread(): boolean {
    return this.last_incoming_at !== null && this.last_incoming_at.getTime() >= (this.agent_last_seen_at?.getTime() ?? -Infinity);
  }

  /** Whether the conversation (its row named `table`) has an incoming message the agents have not seen: a comparison on the row. */
  static hasUnread(table: string): string {
    return `${table}.last_incoming_at > coalesce(${table}.agent_last_seen_at, '-infinity')`;
  }

  /**
   * Incoming messages since the agent last looked in the conversation (its row named `table`),
   * counted only up to the cap Chatwoot shows (along the messages' (conversation_id, message_type,
   * created_at) index, however long the conversation), and only when it has one; written rather than
   * built: every conversation shown reads it.
   */
  private static unreadCountSql(table: string): Sql {
    return sql`case when ${sqlText(Conversation.hasUnread(table))} then (select count(*) from (select from messages m
      where m.conversation_id = ${sqlText(table)}.id and m.message_type = 0 and m.created_at > coalesce(${sqlText(table)}.agent_last_seen_at, '-infinity')
      limit ${UNREAD_CAP}) unread) else 0 end`;
  }

  /** The unread counts of the conversations with these ids (UnreadRow). */
  static unreadCountsSql(conversationIds: readonly number[]): Sql {
    return sql`select c.id as conversation_id, ${Conversation.unreadCountSql("c")} as count from conversations c where ${isIn("c.id", conversationIds)}`;
  }

  /** The conversations `where` selects, each with its unread count as the column unread_count (rowWithUnread reads them). */
  static withUnreadCountsSql(where: ConversationsWhere): Sql {
    return sql`select conversations.*, ${Conversation.unreadCountSql("conversations")} as unread_count from conversations where ${where}`;
  }

  /** A row of withUnreadCountsSql as the conversation and its unread count. */
  static rowWithUnread(this: void, { unread_count, ...row }: Record<string, unknown>): { conversation: Conversation; unread: UnreadRow } {
    const conversation = Conversation.fromDatabaseJson(row);
    return { conversation, unread: { conversation_id: conversation.id, count: unread_count as number | string } };
  }

  static unreadCountsOf(this: void, rows: UnreadRow[]): Map<number, number> {
    return new Map(rows.map((row) => [row.conversation_id, Math.min(Number(row.count), UNREAD_CAP)]));
  }
}

/** Conditions on conversations (what follows `where`), with their values. */
export type ConversationsWhere = Sql;

export interface UnreadRow {
  conversation_id: number;
  count: string | number;
}
