import type { QueryBuilder } from "objection";
import { Contact } from "../../../models/Contact";
import { ContactInbox } from "../../../models/ContactInbox";
import { presentContact } from "../../../presenters/contact";
import { connectedContactIds } from "../../../realtime/presence";
import type { ContactSort } from "./schema";

/** A page of the contact list, search and filter. */
export const PER_PAGE = 15;

/** Contacts as the contacts endpoints render them, with their contact inboxes unless include_contact_inboxes=false. */
export async function presentContacts(contacts: Contact[], includeInboxes = true) {
  const inboxes = includeInboxes ? await ContactInbox.withInboxesOf(contacts.map((c) => c.id)) : undefined;
  const online = contacts.length
    ? await connectedContactIds(
        Contact.knex(),
        contacts[0]!.account_id,
        contacts.map((c) => c.id),
      )
    : new Set<number>();
  return contacts.map((contact) => presentContact(contact, inboxes?.get(contact.id), online.has(contact.id)));
}

/**
 * What each of Contact's sort_on keys orders by; the scope sorts put empty values last either way,
 * the plain column sorts (email, phone_number) leave PostgreSQL's default null order.
 */
const SORT_ORDER: Record<ContactSort, { sql: string; nullsLast: boolean }> = {
  name: { sql: "lower(name)", nullsLast: true },
  email: { sql: "email", nullsLast: false },
  phone_number: { sql: "phone_number", nullsLast: false },
  last_activity_at: { sql: "last_activity_at", nullsLast: true },
  created_at: { sql: "created_at", nullsLast: true },
  company: { sql: "additional_attributes->>'company_name'", nullsLast: true },
  city: { sql: "additional_attributes->>'city'", nullsLast: true },
  country: { sql: "additional_attributes->>'country'", nullsLast: true },
};

/** Sift's `sort=name` / `sort=-name`; without one, the most recently active contacts first. */
export function ordered(query: QueryBuilder<Contact, Contact[]>, sort: string | undefined) {
  if (!sort) return query.orderByRaw("last_activity_at DESC NULLS LAST, id DESC");
  const descending = sort.startsWith("-");
  const { sql, nullsLast } = SORT_ORDER[sort.replace(/^-/, "") as ContactSort];
  return query.orderByRaw(`${sql} ${descending ? "DESC" : "ASC"}${nullsLast ? " NULLS LAST" : ""}, id`);
}
