import type { Knex } from "knex";
import type { QueryBuilder } from "objection";
import type { AttachmentData } from "../services/attachments";
import { idsOf, type InList, Sql, sql, sqlText } from "../db/sql";
import { BaseModel } from "./BaseModel";

/** Chatwoot's integer codes are the index; requests use the names, most responses the integers. */
export const MESSAGE_TYPES = ["incoming", "outgoing", "activity", "template"] as const;
export type MessageTypeName = (typeof MESSAGE_TYPES)[number];
export const MESSAGE_TYPE = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const satisfies Record<MessageTypeName, number>;
export const MESSAGE_STATUSES = ["sent", "delivered", "read", "failed"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const CONTENT_TYPES = [
  "text",
  "input_text",
  "input_textarea",
  "input_email",
  "input_select",
  "cards",
  "form",
  "article",
  "incoming_email",
  "input_csat",
  "integrations",
  "sticker",
  "voice_call",
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
export type SenderType = "Contact" | "User" | "AgentBot";

/** MessageFinder's page sizes: the latest 20, 20 before an id, up to 100 after, up to 1000 between. */
const PAGE = { latest: 20, before: 20, after: 100, between: 1000 } as const;

export interface MessagePage {
  before?: number;
  after?: number;
}

export class Message extends BaseModel {
  static tableName = "messages";
  static jsonAttributes = ["content_attributes", "external_source_ids", "additional_attributes", "sentiment"];

  declare account_id: number;
  declare inbox_id: number;
  /** The conversation's database id (responses show its display_id). */
  declare conversation_id: number;
  declare content: string | null;
  declare message_type: number;
  declare content_type: ContentType;
  declare content_attributes: Record<string, unknown>;
  declare private: boolean;
  declare status: MessageStatus;
  declare source_id: string | null;
  declare sender_type: SenderType | null;
  declare sender_id: number | null;
  declare external_source_ids: Record<string, unknown>;
  declare additional_attributes: Record<string, unknown>;
  declare processed_message_content: string | null;
  declare sentiment: Record<string, unknown>;
  /** The attachments as payloads show them, once loaded (services/attachments.ts#loadAttachments); never a column. */
  declare attachments?: AttachmentData[];

  get messageTypeName(): MessageTypeName {
    return MESSAGE_TYPES[this.message_type]!;
  }

  /** Messages that go to webhooks and bots (Chatwoot's webhook_sendable?): all but activity. */
  get webhookSendable(): boolean {
    return this.message_type !== MESSAGE_TYPE.activity;
  }

  static async findInConversation(conversationId: number, id: number, db?: Knex): Promise<Message | undefined> {
    return Message.query(db).findOne({ conversation_id: conversationId, id });
  }

  /**
   * One page of a conversation's messages, oldest first, as MessageFinder pages them by id;
   * `filter` narrows the messages paged (the public API leaves out private notes and activities).
   */
  static async page(
    conversationId: number,
    { before, after }: MessagePage,
    db?: Knex,
    filter: (q: QueryBuilder<Message, Message[]>) => void = () => {},
  ): Promise<Message[]> {
    const query = Message.query(db).where("conversation_id", conversationId).modify(filter);
    if (after !== undefined && before !== undefined) {
      return query
        .where("id", ">=", after)
        .where("id", "<", before)
        .orderBy([{ column: "created_at" }, { column: "id" }])
        .limit(PAGE.between);
    }
    if (after !== undefined) {
      return query
        .where("id", ">", after)
        .orderBy([{ column: "created_at" }, { column: "id" }])
        .limit(PAGE.after);
    }
    if (before !== undefined) query.where("id", "<", before);
    const newest = await query
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(before !== undefined ? PAGE.before : PAGE.latest);
    return newest.reverse();
  }

  /** MessageFinder's filter_internal_messages and the `chat` scope: neither private notes nor activities. */
  static publicOnly(query: QueryBuilder<Message, Message[]>): void {
    query.where("private", false).whereNot("message_type", MESSAGE_TYPE.activity);
  }

  /**
   * The newest message (by created_at, then id) of each conversation that passes the condition; the
   * text is written, not built, as it is read on every conversation shown. Each is the first entry
   * of the (conversation_id, created_at, id) index from its end, so a conversation's length does not
   * matter (sorting every message of a page's conversations grew with their length).
   */
  static latestSql(conversationIds: InList, condition?: string): Sql {
    return sql`select m.* from (${idsOf(conversationIds)}) as c (id) cross join lateral (select * from messages
      where conversation_id = c.id${sqlText(condition ? ` and ${condition}` : "")} order by created_at desc, id desc limit 1) m`;
  }

  /** The ids of latestSql's messages (without a condition). */
  static latestIdsSql(conversationIds: InList): Sql {
    return sql`select m.id from (${idsOf(conversationIds)}) as c (id) cross join lateral (select id from messages
      where conversation_id = c.id order by created_at desc, id desc limit 1) m`;
  }

  static latestByConversation(messages: Message[]): Map<number, Message> {
    return new Map(messages.map((message) => [message.conversation_id, message]));
  }
}
