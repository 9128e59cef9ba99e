import type { Knex } from "knex";
import { CouldNotProcess, NotFound } from "../errors";
import type { Account } from "../models/Account";
import { Contact, type ContactAttributes } from "../models/Contact";
import { updateContact, writeContactUpdate } from "./contacts";

const MERGED_KEYS = ["identifier", "name", "email", "phone_number", "additional_attributes", "custom_attributes"] as const;

const isBlank = (value: unknown) =>
  value === null || value === undefined || value === "" || (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Hash#deep_merge with the preferred side winning: nested objects merge, anything else is replaced. */
function deepMerge(fallback: Record<string, unknown>, preferred: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...fallback };
  for (const [key, value] of Object.entries(preferred)) {
    merged[key] = isPlainObject(value) && isPlainObject(merged[key]) ? deepMerge(merged[key] as Record<string, unknown>, value) : value;
  }
  return merged;
}

/** The merge-relevant attributes of a contact with blanks dropped (Chatwoot's compact_blank). */
function presentValues(contact: Contact): Record<string, unknown> {
  return Object.fromEntries(MERGED_KEYS.filter((key) => !isBlank(contact[key])).map((key) => [key, contact[key]]));
}

/**
 * ContactMergeAction: the mergee's conversations, messages it sent, contact inboxes and notes move
 * to the base contact; base values win and the mergee's only fill blanks, nested attributes
 * deep-merged; the mergee is deleted. One transaction: a failure anywhere leaves both contacts as
 * they were.
 */
export async function mergeContacts(db: Knex, account: Account, baseId: number, mergeeId: number): Promise<Contact> {
  if (baseId === mergeeId) throw CouldNotProcess("A contact cannot be merged with itself");
  return db.transaction(async (trx) => {
    // Locked in id order so two merges of the same pair cannot deadlock.
    const contacts = await Contact.query(trx).where("account_id", account.id).whereIn("id", [baseId, mergeeId]).orderBy("id").forUpdate();
    const base = contacts.find((c) => c.id === baseId);
    const mergee = contacts.find((c) => c.id === mergeeId);
    if (!base || !mergee) throw NotFound();

    const scope = { account_id: account.id };
    await trx("conversations")
      .where({ ...scope, contact_id: mergee.id })
      .update({ contact_id: base.id });
    await trx("messages")
      .where({ ...scope, sender_type: "Contact", sender_id: mergee.id })
      .update({ sender_id: base.id });
    await trx("contact_inboxes")
      .where({ ...scope, contact_id: mergee.id })
      .update({ contact_id: base.id });
    await trx("notes")
      .where({ ...scope, contact_id: mergee.id })
      .update({ contact_id: base.id });
    await Contact.query(trx).deleteById(mergee.id);

    const merged = deepMerge(presentValues(mergee), presentValues(base)) as ContactAttributes;
    return writeContactUpdate(trx, account, base, merged);
  });
}

/**
 * ContactIdentifyAction without an identifier (the public API's contact update): another contact of
 * the account that already has the email, or the phone number, absorbs this one (the phone only
 * when no other email is given for it), and then takes the update. Blank values change nothing.
 * One transaction for the merges and the update.
 */
export async function identifyContact(db: Knex, account: Account, contact: Contact, attributes: ContactAttributes): Promise<Contact> {
  return db.transaction(async (trx) => {
    let current = contact;
    const { email, phone_number: phoneNumber } = Contact.normalise({ email: attributes.email, phone_number: attributes.phone_number });
    const owner = async (column: "email" | "phone_number", value: string | null | undefined) =>
      value
        ? Contact.query(trx)
            .where({ account_id: account.id, [column]: value })
            .whereNot("id", current.id)
            .first()
        : undefined;
    const update: ContactAttributes = { ...attributes };
    const byEmail = await owner("email", email);
    if (byEmail) current = await mergeContacts(trx, account, byEmail.id, current.id);
    const byPhone = await owner("phone_number", phoneNumber);
    if (byPhone && email && byPhone.email && byPhone.email !== email) delete update.phone_number;
    else if (byPhone) current = await mergeContacts(trx, account, byPhone.id, current.id);
    for (const key of ["name", "email", "phone_number"] as const) if (isBlank(update[key])) delete update[key];
    return updateContact(trx, account, current.id, update);
  });
}
