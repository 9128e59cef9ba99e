import type { ChannelApi } from "../models/ChannelApi";
import type { Contact } from "../models/Contact";
import type { ContactInbox } from "../models/ContactInbox";
import type { Conversation } from "../models/Conversation";
import type { Inbox } from "../models/Inbox";
import type { Message } from "../models/Message";
import { type MessageSender, senderPushEventData } from "./message";
import { iso, unixSeconds } from "./time";

/**
 * The views of Chatwoot's public client API (app/views/public/api/v1): far smaller than the
 * account API's, since the caller is the contact itself.
 */

/** inboxes/contacts/{create,show}.json.jbuilder: the contact inbox's ids and the contact's name, email and phone. */
export function publicContact(contactInbox: ContactInbox, contact: Contact) {
  return {
    source_id: contactInbox.source_id,
    pubsub_token: contactInbox.pubsub_token,
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phone_number: contact.phone_number,
  };
}

/** inboxes/show.json.jbuilder with models/_inbox: what a client shows before the contact writes (name, hours, CSAT). */
export function publicInbox(channel: ChannelApi, inbox: Inbox) {
  return {
    identifier: channel.identifier,
    identity_validation_enabled: channel.hmac_mandatory,
    name: inbox.name,
    timezone: inbox.timezone,
    working_hours: [...inbox.working_hours].sort((a, b) => a.day_of_week - b.day_of_week),
    working_hours_enabled: inbox.working_hours_enabled,
    csat_survey_enabled: inbox.csat_survey_enabled,
    // This service has no such setting; Chatwoot's default for an inbox that never set it.
    csat_response_visible: false,
    greeting_enabled: inbox.greeting_enabled,
  };
}

/** A contact as Rails' `render json: contact` writes a record: every column, times in ISO 8601. */
export function contactRecord(contact: Contact) {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phone_number: contact.phone_number,
    account_id: contact.account_id,
    created_at: iso(contact.created_at),
    updated_at: iso(contact.updated_at),
    additional_attributes: contact.additional_attributes,
    identifier: contact.identifier,
    custom_attributes: contact.custom_attributes,
    last_activity_at: iso(contact.last_activity_at),
    contact_type: contact.contact_type,
    location: contact.location,
    country_code: contact.country_code,
    blocked: contact.blocked,
  };
}

/** models/_message.json.jbuilder: message_type as its integer, conversation_id as the display id. */
export function publicMessage(message: Message, conversation: Pick<Conversation, "display_id">, sender: MessageSender | null, inbox?: Inbox) {
  return {
    id: message.id,
    content: message.content,
    message_type: message.message_type,
    content_type: message.content_type,
    content_attributes: message.content_attributes,
    created_at: unixSeconds(message.created_at),
    conversation_id: conversation.display_id,
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
    ...(sender ? { sender: senderPushEventData(sender, inbox) } : {}),
  };
}

export interface PublicConversationView {
  conversation: Conversation;
  contact: Contact;
  /** The conversation's chat messages (no activity, no private notes), oldest first, with senders. */
  messages: { message: Message; sender: MessageSender | null }[];
  inbox?: Inbox;
}

/** models/_conversation.json.jbuilder; Rails' nil.to_i is 0 for the seen-at times. */
export function publicConversation({ conversation, contact, messages, inbox }: PublicConversationView) {
  return {
    id: conversation.display_id,
    uuid: conversation.uuid,
    inbox_id: conversation.inbox_id,
    contact_last_seen_at: unixSeconds(conversation.contact_last_seen_at) ?? 0,
    status: conversation.status,
    agent_last_seen_at: unixSeconds(conversation.agent_last_seen_at) ?? 0,
    messages: messages.map(({ message, sender }) => publicMessage(message, conversation, sender, inbox)),
    contact: contactRecord(contact),
  };
}
