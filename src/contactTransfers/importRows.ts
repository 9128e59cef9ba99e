import { fullMessage } from "../errors";
import { MAX_LENGTH } from "../http/limits";
import { E164, EMAIL } from "../models/Contact";

/** A CSV row as a contact: what DataImport::ContactManager takes from it. */
export interface ImportedContact {
  name: string | null;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
  additional_attributes: Record<string, string>;
  custom_attributes: Record<string, string>;
}

export type RowOutcome = { ok: true; contact: ImportedContact } | { ok: false; errors: string[] };

const FIELDS = new Set(["name", "email", "phone_number", "identifier"]);
const COMPANY = new Set(["company_name", "company"]);
/** Columns beyond these become custom attributes; a row has at most this many of them. */
const MAX_CUSTOM_ATTRIBUTES = 100;

/** Header names as the columns are matched: trimmed and lowercased ("Phone_Number" is phone_number). */
export function normaliseHeader(header: string[]): string[] {
  return header.map((column) => column.trim().toLowerCase());
}

/**
 * One row of the file, checked: identifier, email, phone_number (a `+` put in front when missing)
 * and name are the contact's; company_name or company and city go to additional_attributes; every
 * other non-blank column, city included, to custom_attributes. Errors read as Chatwoot's
 * full_messages do in the failed-records CSV.
 */
export function contactOfRow(columns: string[], values: string[]): RowOutcome {
  const errors: string[] = [];
  if (values.length > columns.length) errors.push("Row has more values than the header has columns");
  const fields: Record<string, string | null> = { name: null, email: null, phone_number: null, identifier: null };
  const additional: Record<string, string> = {};
  const custom: Record<string, string> = {};
  columns.forEach((column, index) => {
    const value = values[index]?.trim();
    if (!value || !column) return;
    if (value.length > MAX_LENGTH.string) {
      errors.push(fullMessage(column, `is too long (maximum is ${MAX_LENGTH.string} characters)`));
      return;
    }
    if (FIELDS.has(column)) fields[column] = value;
    else if (COMPANY.has(column)) additional.company_name = value;
    else {
      if (column === "city") additional.city = value;
      custom[column] = value;
    }
  });
  if (Object.keys(custom).length > MAX_CUSTOM_ATTRIBUTES) errors.push(`Row has more than ${MAX_CUSTOM_ATTRIBUTES} custom attributes`);
  const email = fields.email?.toLowerCase() ?? null;
  if (email && !EMAIL.test(email)) errors.push(fullMessage("email", "Invalid email"));
  const phone = fields.phone_number ? (fields.phone_number.startsWith("+") ? fields.phone_number : `+${fields.phone_number}`) : null;
  if (phone && !E164.test(phone)) errors.push(fullMessage("phone_number", "should be in e164 format"));
  if (!fields.name && !email && !phone && !fields.identifier) errors.push("Row has no name, email, phone_number or identifier");
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    contact: { name: fields.name, email, phone_number: phone, identifier: fields.identifier, additional_attributes: additional, custom_attributes: custom },
  };
}

/** The keys a contact is matched by, in Chatwoot's order: identifier, then email, then phone number. */
export function matchKeys(contact: ImportedContact): { kind: "identifier" | "email" | "phone_number"; value: string }[] {
  const keys: { kind: "identifier" | "email" | "phone_number"; value: string }[] = [];
  if (contact.identifier) keys.push({ kind: "identifier", value: contact.identifier });
  if (contact.email) keys.push({ kind: "email", value: contact.email });
  if (contact.phone_number) keys.push({ kind: "phone_number", value: contact.phone_number });
  return keys;
}
