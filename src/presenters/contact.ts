import { jsonEqual } from "../lib/jsonEqual";
import type { Account } from "../models/Account";
import type { Contact } from "../models/Contact";
import type { ContactInboxWithSlimInbox } from "../models/ContactInbox";
import { presentInboxSlim } from "./inbox";
import { iso, unixSeconds } from "./time";
import { avatarUrlOf } from "../services/avatars";

/** A contact without a live /cable subscription (src/realtime/presence.ts), as Chatwoot shows one. */
const AVAILABILITY = "offline";

/**
 * app/views/api/v1/models/_contact.json.jbuilder: timestamps as Unix seconds and left out when
 * null; contact_inboxes only where the contacts endpoints include them.
 */
export function presentContact(contact: Contact, contactInboxes?: ContactInboxWithSlimInbox[], online = false) {
  return {
    additional_attributes: contact.additional_attributes,
    availability_status: online ? "online" : AVAILABILITY,
    email: contact.email,
    id: contact.id,
    name: contact.name,
    phone_number: contact.phone_number,
    blocked: contact.blocked,
    identifier: contact.identifier,
    thumbnail: avatarUrlOf(contact),
    custom_attributes: contact.custom_attributes,
    ...(contact.last_activity_at ? { last_activity_at: unixSeconds(contact.last_activity_at) } : {}),
    ...(contact.created_at ? { created_at: unixSeconds(contact.created_at) } : {}),
    ...(contactInboxes
      ? { contact_inboxes: contactInboxes.map(({ contactInbox, inbox }) => ({ source_id: contactInbox.source_id, inbox: presentInboxSlim(inbox) })) }
      : {}),
  };
}

/** Contact#webhook_data: the contact in contact_* event payloads and as a message's contact sender. */
export function contactWebhookData(contact: Contact, account: Pick<Account, "id" | "name">) {
  return {
    account: { id: account.id, name: account.name },
    additional_attributes: contact.additional_attributes,
    avatar: avatarUrlOf(contact),
    custom_attributes: contact.custom_attributes,
    email: contact.email,
    id: contact.id,
    identifier: contact.identifier,
    name: contact.name,
    phone_number: contact.phone_number,
    thumbnail: avatarUrlOf(contact),
    blocked: contact.blocked,
  };
}

/**
 * Contact#push_event_data, a conversation's meta.sender; with the spec's availability_status,
 * last_activity_at and created_at beside Chatwoot's keys.
 */
export function contactPushEventData(contact: Contact) {
  return {
    additional_attributes: contact.additional_attributes,
    availability_status: AVAILABILITY,
    custom_attributes: contact.custom_attributes,
    email: contact.email,
    id: contact.id,
    identifier: contact.identifier,
    name: contact.name,
    phone_number: contact.phone_number,
    thumbnail: avatarUrlOf(contact),
    blocked: contact.blocked,
    last_activity_at: unixSeconds(contact.last_activity_at),
    created_at: unixSeconds(contact.created_at),
    type: "contact" as const,
  };
}

/** Columns whose changes contact_updated reports, as Rails' previous_changes would list them. */
const TRACKED = [
  "name",
  "email",
  "phone_number",
  "identifier",
  "blocked",
  "avatar_url",
  "contact_type",
  "location",
  "country_code",
  "additional_attributes",
  "custom_attributes",
  "last_activity_at",
] as const;

const jsonValue = (value: unknown) => (value instanceof Date ? iso(value) : (value ?? null));

/**
 * Chatwoot's changed_attributes: `[{"attr": {"previous_value", "current_value"}}]`, with updated_at
 * among them whenever anything changed; null when nothing did.
 */
export function contactChangedAttributes(before: Contact, after: Contact): Record<string, { previous_value: unknown; current_value: unknown }>[] | null {
  const changed = TRACKED.filter((key) => !jsonEqual(jsonValue(before[key]), jsonValue(after[key])));
  if (!changed.length) return null;
  return [...changed, "updated_at" as const].map((key) => ({
    [key]: { previous_value: jsonValue(before[key]), current_value: jsonValue(after[key]) },
  }));
}
