import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { Contact, type ContactAttributes } from "../models/Contact";
import { ContactInbox } from "../models/ContactInbox";
import { identifyContact, mergeContacts } from "./contactMerge";
import { HmacFailed, identifierHashValid } from "./publicApi";
import { createVisitor, type Visitor, type WebWidgetScope } from "./widget";

/**
 * ContactIdentifyAction: the account's contact that already has the identifier absorbs the
 * visitor, then email and phone number are matched as identifyContact does; the rest is an update
 * (custom and additional attributes merge). One transaction.
 */
export async function identifyVisitor(db: Knex, account: Account, contact: Contact, attributes: ContactAttributes): Promise<Contact> {
  return db.transaction(async (trx) => {
    const identifier = attributes.identifier?.trim();
    const owner = identifier ? await Contact.query(trx).where({ account_id: account.id, identifier }).whereNot("id", contact.id).first() : undefined;
    const current = owner ? await mergeContacts(trx, account, owner.id, contact.id) : contact;
    return identifyContact(trx, account, current, attributes);
  });
}

/** A visitor already known as someone else: setUser for another person must not merge the two. */
function identifiedAsSomeoneElse(contact: Contact, { identifier, email, phone_number }: ContactAttributes): boolean {
  const differs = (known: string | null, given: string | null | undefined) => Boolean(known && given && known.toLowerCase() !== given.trim().toLowerCase());
  return differs(contact.identifier, identifier) || differs(contact.email, email) || differs(contact.phone_number, phone_number);
}

export interface SetUserResult {
  visitor: Visitor;
  /** The visitor was someone else: this session is a new contact, whose token the widget must keep from now on. */
  switched: boolean;
}

/**
 * ContactsController#set_user: the site names its signed-in user. A visitor already identified as
 * another person becomes a new contact; with identifier_hash (or when the inbox makes it
 * mandatory) the hash must be the inbox's HMAC of the identifier, and the contact inbox is then
 * verified, which lets it reach the person's conversations from every verified session.
 */
export async function setVisitorUser(
  db: Knex,
  scope: WebWidgetScope,
  current: Visitor,
  remoteIp: string,
  { identifier_hash, ...attributes }: ContactAttributes & { identifier_hash?: string },
): Promise<SetUserResult> {
  if ((identifier_hash || scope.channel.hmac_mandatory) && !identifierHashValid(scope.channel, attributes.identifier ?? undefined, identifier_hash)) {
    throw HmacFailed();
  }
  const switched = identifiedAsSomeoneElse(current.contact, attributes);
  const visitor = switched ? await createVisitor(db, scope, remoteIp) : current;
  if (identifier_hash && !visitor.contactInbox.hmac_verified) await ContactInbox.query(db).patch({ hmac_verified: true }).where("id", visitor.contactInbox.id);
  const contact = await identifyVisitor(db, scope.account, visitor.contact, attributes);
  const contactInbox = await ContactInbox.query(db).findById(visitor.contactInbox.id).throwIfNotFound();
  return { visitor: { contact, contactInbox }, switched };
}
