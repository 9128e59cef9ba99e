import type { Knex } from "knex";
import { ValidationError } from "../errors";
import { secureToken, uuid } from "../lib/tokens";
import { isIn, Sql, sql } from "../db/sql";
import { Batch } from "../db/batch";
import { BaseModel } from "./BaseModel";
import { Inbox } from "./Inbox";

/** A contact's identity in one inbox (source_id is the channel's id for the contact). */
export class ContactInbox extends BaseModel {
  static tableName = "contact_inboxes";

  declare account_id: number;
  declare contact_id: number;
  declare inbox_id: number;
  declare source_id: string;
  declare hmac_verified: boolean;
  declare pubsub_token: string | null;

  /**
   * Chatwoot's ContactInboxBuilder for the API and web widget channels: the given source_id, or a
   * new UUID; an existing (contact, inbox, source_id) is reused.
   */
  static async findOrCreate(trx: Knex.Transaction, contactId: number, inbox: Inbox, sourceId?: string): Promise<ContactInbox> {
    const source = sourceId?.trim() || uuid();
    const existing = await ContactInbox.query(trx).findOne({ inbox_id: inbox.id, source_id: source });
    if (existing) {
      if (existing.contact_id !== contactId) throw ValidationError.of("source_id", "has already been taken");
      return existing;
    }
    return ContactInbox.query(trx)
      .insert({ account_id: inbox.account_id, contact_id: contactId, inbox_id: inbox.id, source_id: source, pubsub_token: secureToken() })
      .returning("*");
  }

  /**
   * The contact inboxes of these contacts with the inbox fields the contacts endpoints show, oldest
   * first, by contact id, in one query.
   */
  static async withInboxesOf(contactIds: number[], db?: Knex): Promise<Map<number, ContactInboxWithSlimInbox[]>> {
    if (!contactIds.length) return ContactInbox.slimInboxesByContact(contactIds, []);
    return ContactInbox.slimInboxesByContact(contactIds, await Batch.rowsOf<SlimInboxRow>(db ?? ContactInbox.knex(), ContactInbox.slimInboxesSql(contactIds)));
  }

  /** The rows withInboxesOf reads, for a caller that sends the query itself (in a Batch); written, not built, as GET contact reads it. */
  static slimInboxesSql(contactIds: number[]): Sql {
    return sql`select ci.contact_id, ci.source_id, i.id, i.avatar_url, i.channel_id, i.name, i.channel_type
      from contact_inboxes ci join inboxes i on i.id = ci.inbox_id where ${isIn("ci.contact_id", contactIds)} order by ci.id`;
  }

  static slimInboxesByContact(contactIds: number[], rows: SlimInboxRow[]): Map<number, ContactInboxWithSlimInbox[]> {
    const result = new Map<number, ContactInboxWithSlimInbox[]>(contactIds.map((id) => [id, []]));
    for (const { contact_id, source_id, ...inbox } of rows) result.get(contact_id)!.push({ contactInbox: { source_id }, inbox });
    return result;
  }
}

/** What a contact's contact_inboxes entry shows of its inbox (presentInboxSlim). */
export type SlimInbox = Pick<Inbox, "id" | "avatar_url" | "channel_id" | "name" | "channel_type">;

export type SlimInboxRow = SlimInbox & { contact_id: number; source_id: string };

export interface ContactInboxWithSlimInbox {
  contactInbox: Pick<ContactInbox, "source_id">;
  inbox: SlimInbox;
}
