import type { Knex } from "knex";
import { ValidationError } from "../errors";
import { secureToken, uuid } from "../lib/tokens";
import { BaseModel } from "./BaseModel";
import { Inbox } from "./Inbox";

/** A contact's identity in one inbox (source_id is the channel's id for the contact). */
export class ContactInbox extends BaseModel {
  static tableName = "contact_inboxes";

  account_id!: number;
  contact_id!: number;
  inbox_id!: number;
  source_id!: string;
  hmac_verified!: boolean;
  pubsub_token!: string | null;

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

  /** The contact inboxes of these contacts with their inboxes, oldest first, by contact id. */
  static async withInboxesOf(contactIds: number[], db?: Knex): Promise<Map<number, { contactInbox: ContactInbox; inbox: Inbox }[]>> {
    const result = new Map<number, { contactInbox: ContactInbox; inbox: Inbox }[]>(contactIds.map((id) => [id, []]));
    if (!contactIds.length) return result;
    const contactInboxes = await ContactInbox.query(db).whereIn("contact_id", contactIds).orderBy("id");
    const inboxes = await Inbox.query(db).findByIds([...new Set(contactInboxes.map((ci) => ci.inbox_id))]);
    const inboxById = new Map(inboxes.map((inbox) => [inbox.id, inbox]));
    for (const contactInbox of contactInboxes) {
      result.get(contactInbox.contact_id)!.push({ contactInbox, inbox: inboxById.get(contactInbox.inbox_id)! });
    }
    return result;
  }
}
