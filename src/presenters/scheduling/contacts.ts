import type { Contact } from "../../models/Contact";

const stringOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** A contact as the scheduling area shows it; the IIN stands in for a missing identifier. */
export function presentSchedulingContact(contact: Contact) {
  const attributes = contact.custom_attributes ?? {};
  return {
    id: contact.id,
    account_id: contact.account_id,
    company_id: typeof attributes.company_id === "number" ? attributes.company_id : null,
    full_name: contact.name,
    phone: contact.phone_number,
    identifier: contact.identifier ?? stringOrNull(attributes.iin),
    gender: stringOrNull(attributes.gender),
    birth_date: stringOrNull(attributes.birth_date),
    custom_attributes: attributes,
  };
}
