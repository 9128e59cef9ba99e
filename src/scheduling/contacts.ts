/**
 * Scheduling contacts are the account's ordinary contacts (the `contacts` table): birth date,
 * gender, IIN and company live in custom_attributes. POST creates one or enriches the contact
 * already known by the same identifier or phone. Writes go through the shared contact service, so
 * they raise contact_created / contact_updated as any contact's do; the custom-attribute
 * definitions are not checked against scheduling's own keys.
 */
import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { Contact } from "../models/Contact";
import { writeContactCreate, writeContactUpdate } from "../services/contacts";
import { invalidAttribute } from "./errors";
import { iinDigits, iinMetadata, normalizeIdentifier } from "./iin";
import { normalizePhone } from "./phone";

export interface SchedulingContactInput {
  full_name?: string;
  name?: string;
  phone?: string;
  phone_number?: string;
  identifier?: string;
  iin?: string;
  birth_date?: string;
  gender?: string;
  company_id?: number;
  custom_attributes?: Record<string, unknown>;
}

interface ContactChanges {
  name?: string;
  phone_number?: string;
  identifier?: string;
  attributes: Record<string, unknown>;
  /** What a valid IIN in the request encodes: a fallback for birth_date and gender, never an override. */
  encoded?: { birth_date: string; gender: string };
}

const present = (value: string | undefined) => (value !== undefined && value.trim() !== "" ? value.trim() : undefined);

/**
 * The request in the contacts table's terms. Only `iin` is checked as an IIN: the fork passes
 * `identifier` through as a free identifier, whatever it looks like.
 */
function changesFrom(input: SchedulingContactInput): ContactChanges {
  const rawPhone = present(input.phone ?? input.phone_number);
  const phone = rawPhone === undefined ? undefined : normalizePhone(rawPhone);
  if (rawPhone !== undefined && phone === undefined) throw invalidAttribute("phone", "is invalid");

  const iin = present(input.iin) === undefined ? undefined : normalizeIdentifier(input.iin!);
  const encoded = iin !== undefined && iinDigits(iin) === iin ? iinMetadata(iin) : undefined;

  const attributes: Record<string, unknown> = { ...input.custom_attributes };
  const set = (key: string, value: unknown) => {
    if (value !== undefined) attributes[key] = value;
  };
  set("iin", iin);
  set("birth_date", present(input.birth_date));
  set("gender", present(input.gender));
  set("company_id", input.company_id);
  return { name: present(input.full_name ?? input.name), phone_number: phone, identifier: present(input.identifier) ?? iin, attributes, encoded };
}

const blank = (value: unknown) => value === undefined || value === null || value === "";

/**
 * The stored attributes with the request's merged over them. The fork derives nothing server-side
 * (only its form pre-fills from the IIN), so the IIN's birth date and gender may fill a gap but
 * never replace a value the contact or the request already holds.
 */
function attributesAfter(stored: Record<string, unknown>, changes: ContactChanges): Record<string, unknown> {
  const merged = { ...stored, ...changes.attributes };
  for (const [key, value] of Object.entries(changes.encoded ?? {})) if (blank(merged[key])) merged[key] = value;
  return merged;
}

/** Locked: the attributes merged into it must be the ones stored, not a concurrent request's stale copy. */
async function findKnown(trx: Knex.Transaction, accountId: number, changes: ContactChanges): Promise<Contact | undefined> {
  if (changes.identifier) {
    const byIdentifier = await Contact.query(trx).findOne({ account_id: accountId, identifier: changes.identifier }).forUpdate();
    if (byIdentifier) return byIdentifier;
  }
  if (changes.phone_number) return Contact.query(trx).findOne({ account_id: accountId, phone_number: changes.phone_number }).forUpdate();
  return undefined;
}

/** Through the shared contact writes, so contact_updated is recorded (or not, when nothing changed). */
function enrich(trx: Knex.Transaction, account: Account, contact: Contact, changes: ContactChanges): Promise<Contact> {
  return writeContactUpdate(trx, account, contact, {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.phone_number !== undefined ? { phone_number: changes.phone_number } : {}),
    ...(changes.identifier !== undefined ? { identifier: changes.identifier } : {}),
    custom_attributes: attributesAfter(contact.custom_attributes, changes),
  });
}

/**
 * Creates the contact, or enriches the one with the same identifier (else phone); `created` tells
 * which. Either way Chatwoot's contact event is recorded in the same transaction.
 */
export async function createOrEnrichContact(account: Account, input: SchedulingContactInput): Promise<{ contact: Contact; created: boolean }> {
  const changes = changesFrom(input);
  return Contact.transaction(async (trx) => {
    const known = await findKnown(trx, account.id, changes);
    if (known) return { contact: await enrich(trx, account, known, changes), created: false };
    const contact = await writeContactCreate(trx, account, {
      name: changes.name ?? "",
      phone_number: changes.phone_number ?? null,
      identifier: changes.identifier ?? null,
      custom_attributes: attributesAfter({}, changes),
    });
    return { contact, created: true };
  });
}

export async function updateContact(account: Account, id: number, input: SchedulingContactInput): Promise<Contact | undefined> {
  const changes = changesFrom(input);
  return Contact.transaction(async (trx) => {
    const contact = await Contact.query(trx).findOne({ account_id: account.id, id }).forUpdate();
    return contact && enrich(trx, account, contact, changes);
  });
}

export async function findContact(accountId: number, id: number): Promise<Contact | undefined> {
  return Contact.query().findOne({ account_id: accountId, id });
}

/** Contacts matching `search` in name, email, phone or identifier, most recently changed first. */
export async function searchContacts(accountId: number, search: string | undefined, limit: number): Promise<Contact[]> {
  const query = Contact.query()
    .where("account_id", accountId)
    .orderBy([
      { column: "updated_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .limit(limit);
  const term = search?.trim();
  if (term) {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.where((q) =>
      q.where("name", "ilike", pattern).orWhere("email", "ilike", pattern).orWhere("phone_number", "ilike", pattern).orWhere("identifier", "ilike", pattern),
    );
  }
  return query;
}
