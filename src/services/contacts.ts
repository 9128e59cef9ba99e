import type { Knex } from "knex";
import { NotFound } from "../errors";
import type { Account } from "../models/Account";
import { Contact, type ContactAttributes } from "../models/Contact";
import { ContactInbox } from "../models/ContactInbox";
import { Inbox } from "../models/Inbox";
import { contactChangedAttributes, contactWebhookData } from "../presenters/contact";
import { validateCustomAttributes } from "./customAttributes";
import { recordEvent } from "../events/outbox";
import { requestAvatarFetch } from "./avatarFetch";

export interface ContactCreateInput extends ContactAttributes {
  inbox_id?: number;
  source_id?: string;
}

/** Runs the write, answering a unique-index race with the 422 the checks would have given. */
async function withUniqueness<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw Contact.uniquenessError(err) ?? err;
  }
}

/**
 * contacts#create: the contact, its contact inbox when an inbox is named, and contact_created,
 * all in one transaction.
 */
export async function createContact(db: Knex, account: Account, { inbox_id, source_id, ...input }: ContactCreateInput) {
  return withUniqueness(() =>
    db.transaction(async (trx) => {
      const contact = await writeContactCreate(trx, account, input);
      // After the contact's own checks, as before; a failure rolls the insert back.
      await validateCustomAttributes(trx, account.id, "contact_attribute", input.custom_attributes ?? {});
      const inbox = inbox_id === undefined ? undefined : await Inbox.findInAccount(account.id, inbox_id, trx);
      if (inbox_id !== undefined && !inbox) throw NotFound();
      const contactInbox: { contactInbox: ContactInbox; inbox: Inbox } | undefined = inbox && {
        contactInbox: await ContactInbox.findOrCreate(trx, contact.id, inbox, source_id),
        inbox,
      };
      return { contact, contactInbox };
    }),
  );
}

/**
 * Checks and inserts a contact and records contact_created, in the caller's transaction. Custom
 * attributes are the caller's to check: scheduling keeps keys of its own there.
 */
export async function writeContactCreate(trx: Knex.Transaction, account: Account, attributes: ContactAttributes): Promise<Contact> {
  const normalised = Contact.normalise(attributes);
  await Contact.validate(trx, account.id, normalised);
  const contact = await Contact.query(trx)
    .insert({ ...normalised, account_id: account.id })
    .returning("*");
  await recordEvent(trx, { accountId: account.id, name: "contact_created", payload: { ...contactWebhookData(contact, account), event: "contact_created" } });
  await requestAvatarFetch(trx, "contact", undefined, contact);
  return contact;
}

/**
 * Writes already-checked attributes and records contact_updated with Chatwoot's
 * changed_attributes, skipped when nothing changed. Runs in the caller's transaction.
 */
export async function writeContactUpdate(trx: Knex.Transaction, account: Account, contact: Contact, attributes: ContactAttributes): Promise<Contact> {
  const normalised = Contact.normalise(attributes, contact);
  await Contact.validate(trx, account.id, normalised, contact.id);
  const updated = await Contact.query(trx).patchAndFetchById(contact.id, normalised);
  const changedAttributes = contactChangedAttributes(contact, updated);
  await requestAvatarFetch(trx, "contact", contact, updated);
  if (changedAttributes) {
    await recordEvent(trx, {
      accountId: account.id,
      name: "contact_updated",
      payload: { ...contactWebhookData(updated, account), event: "contact_updated", changed_attributes: changedAttributes },
    });
  }
  return updated;
}

/** contacts#update: custom and additional attributes merge into the stored ones; new custom keys must fit their definitions. */
export async function updateContact(db: Knex, account: Account, contactId: number, { custom_attributes, additional_attributes, ...input }: ContactAttributes) {
  return withUniqueness(() =>
    db.transaction(async (trx) => {
      if (custom_attributes) await validateCustomAttributes(trx, account.id, "contact_attribute", custom_attributes);
      // Locked: the JSON merges see every earlier write, and a contact merged away meanwhile is a 404.
      const contact = await Contact.lockInAccount(trx, account.id, contactId);
      return writeContactUpdate(trx, account, contact, {
        ...input,
        ...(custom_attributes ? { custom_attributes: { ...contact.custom_attributes, ...custom_attributes } } : {}),
        ...(additional_attributes ? { additional_attributes: { ...contact.additional_attributes, ...additional_attributes } } : {}),
      });
    }),
  );
}

/** contacts#destroy_custom_attributes: drops the listed keys. */
export async function removeCustomAttributes(db: Knex, account: Account, contactId: number, keys: string[]) {
  return db.transaction(async (trx) => {
    const contact = await Contact.lockInAccount(trx, account.id, contactId);
    const remaining = Object.fromEntries(Object.entries(contact.custom_attributes).filter(([key]) => !keys.includes(key)));
    return writeContactUpdate(trx, account, contact, { custom_attributes: remaining });
  });
}

/**
 * ContactInboxWithContactBuilder (the public API's contact create): the contact inbox with that
 * source_id if the inbox has one; otherwise the account's contact with the same identifier, email
 * or phone number (in that order), or a new one, given a contact inbox under the source_id. The
 * inbox row is locked first, so concurrent creates for one person end with one contact.
 */
export async function findOrCreateInboxContact(db: Knex, account: Account, inbox: Inbox, sourceId: string, attributes: ContactAttributes) {
  return withUniqueness(() =>
    db.transaction(async (trx) => {
      await trx("inboxes").where("id", inbox.id).forUpdate().first("id");
      const existing = await ContactInbox.query(trx).findOne({ inbox_id: inbox.id, source_id: sourceId });
      if (existing) return { contactInbox: existing, contact: await Contact.query(trx).findById(existing.contact_id).throwIfNotFound() };
      const normalised = Contact.normalise(attributes);
      let contact: Contact | undefined;
      for (const key of ["identifier", "email", "phone_number"] as const) {
        const value = normalised[key];
        if (!contact && value) contact = await Contact.query(trx).findOne({ account_id: account.id, [key]: value });
      }
      if (!contact) {
        contact = await writeContactCreate(trx, account, attributes);
        await validateCustomAttributes(trx, account.id, "contact_attribute", attributes.custom_attributes ?? {});
      }
      return { contact, contactInbox: await ContactInbox.findOrCreate(trx, contact.id, inbox, sourceId) };
    }),
  );
}
