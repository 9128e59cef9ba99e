import type { AccountUser } from "../models/AccountUser";
import type { Article } from "../models/Article";
import type { Contact } from "../models/Contact";
import type { Conversation } from "../models/Conversation";
import type { Inbox } from "../models/Inbox";
import type { Message } from "../models/Message";
import type { User } from "../models/User";
import { type MessageSender, senderPushEventData } from "./message";
import { unixSeconds } from "./time";

// app/views/api/v1/accounts/search/*: the slim partials search results render.

export function searchInbox(inbox: Inbox) {
  return { id: inbox.id, channel_id: inbox.channel_id, name: inbox.name, channel_type: inbox.channel_type };
}

export function searchContact(contact: Contact) {
  return {
    email: contact.email,
    id: contact.id,
    name: contact.name,
    phone_number: contact.phone_number,
    identifier: contact.identifier,
    additional_attributes: contact.additional_attributes,
    last_activity_at: unixSeconds(contact.last_activity_at),
  };
}

export function searchAgent(user: User, membership: AccountUser | undefined) {
  return { id: user.id, available_name: user.availableName, email: user.email, name: user.name, role: membership?.role ?? null };
}

export interface MessageContext {
  displayId: number | undefined;
  sender: MessageSender | null | undefined;
  inbox: Inbox | undefined;
}

export function searchMessage(message: Message, { displayId, sender, inbox }: MessageContext) {
  return {
    id: message.id,
    content: message.content,
    message_type: message.message_type,
    content_type: message.content_type,
    source_id: message.source_id,
    inbox_id: message.inbox_id,
    conversation_id: displayId ?? null,
    created_at: unixSeconds(message.created_at),
    ...(sender ? { sender: senderPushEventData(sender, inbox) } : {}),
    inbox: inbox ? searchInbox(inbox) : {},
  };
}

export interface ConversationContext {
  firstMessage: ReturnType<typeof searchMessage> | undefined;
  contact: Contact | undefined;
  inbox: Inbox | undefined;
  agent: ReturnType<typeof searchAgent> | undefined;
}

/** Parts a conversation does not have render as empty objects, as jbuilder's blocks do. */
export function searchConversation(conversation: Conversation, { firstMessage, contact, inbox, agent }: ConversationContext) {
  return {
    id: conversation.display_id,
    account_id: Number(conversation.account_id),
    created_at: unixSeconds(conversation.created_at),
    message: firstMessage ?? {},
    contact: contact ? searchContact(contact) : {},
    inbox: inbox ? searchInbox(inbox) : {},
    agent: agent ?? {},
    additional_attributes: conversation.additional_attributes,
  };
}

/** search/_article: the article with its portal's slug and its category's name (null without one). */
export function searchArticle(article: Article, { portalSlug, categoryName }: { portalSlug: string; categoryName: string | undefined }) {
  return {
    id: article.id,
    title: article.title,
    locale: article.locale,
    content: article.content,
    slug: article.slug,
    portal_slug: portalSlug,
    account_id: article.account_id,
    category_name: categoryName ?? null,
    status: article.status,
    updated_at: unixSeconds(article.updated_at),
  };
}
