import type { AgentBot } from "../models/AgentBot";
import type { Contact } from "../models/Contact";
import type { Inbox } from "../models/Inbox";
import type { Message } from "../models/Message";
import type { User } from "../models/User";
import { contactPushEventData, contactWebhookData } from "./contact";
import { iso, unixSeconds } from "./time";
import { avatarUrlOf } from "../services/avatars";

/** The author of a message, loaded with what its payloads show. */
export type MessageSender = { type: "Contact"; contact: Contact } | { type: "User"; user: User; availability: string } | { type: "AgentBot"; bot: AgentBot };

/** What a message payload shows of its conversation (Message#conversation_push_event_data). */
export interface MessageConversation {
  displayId: number;
  assigneeId: number | null;
  unreadCount: number;
  lastActivityAt: Date;
  sourceId: string | null;
}

export interface AccountRef {
  id: number;
  name: string;
}

/** User#push_event_data */
export function userPushEventData(user: User, availability: string) {
  return {
    id: user.id,
    name: user.name,
    available_name: user.availableName,
    avatar_url: avatarUrlOf(user),
    type: "user",
    availability_status: availability,
    thumbnail: avatarUrlOf(user),
  };
}

/** AgentBot#push_event_data(inbox): the inbox avatar stands in for a bot without one. */
export function agentBotPushEventData(bot: AgentBot, inbox?: Inbox) {
  return { id: bot.id, name: bot.name, avatar_url: avatarUrlOf(bot) || (inbox ? avatarUrlOf(inbox) : ""), type: "agent_bot" };
}

export function senderPushEventData(sender: MessageSender, inbox?: Inbox) {
  switch (sender.type) {
    case "Contact":
      return contactPushEventData(sender.contact);
    case "User":
      return userPushEventData(sender.user, sender.availability);
    case "AgentBot":
      return agentBotPushEventData(sender.bot, inbox);
  }
}

/** sender.webhook_data: contacts carry no `type`, users and bots do. */
function senderWebhookData(sender: MessageSender, account: AccountRef) {
  switch (sender.type) {
    case "Contact":
      return contactWebhookData(sender.contact, account);
    case "User":
      return { id: sender.user.id, name: sender.user.name, email: sender.user.email, type: "user" };
    case "AgentBot":
      return { id: sender.bot.id, name: sender.bot.name, type: "agent_bot" };
  }
}

/**
 * Message#push_event_data: every column (message_type as its integer, conversation_id as the
 * display id, updated_at as Rails renders a time) plus the conversation summary and the sender.
 * Messages in conversation payloads, the message list and message responses use it.
 */
export function messagePushEventData(message: Message, conversation: MessageConversation, sender: MessageSender | null, inbox?: Inbox) {
  return {
    id: message.id,
    content: message.content,
    account_id: message.account_id,
    inbox_id: message.inbox_id,
    conversation_id: conversation.displayId,
    message_type: message.message_type,
    created_at: unixSeconds(message.created_at),
    updated_at: iso(message.updated_at),
    private: message.private,
    status: message.status,
    source_id: message.source_id,
    content_type: message.content_type,
    content_attributes: message.content_attributes,
    sender_type: message.sender_type,
    sender_id: message.sender_id,
    external_source_ids: message.external_source_ids,
    additional_attributes: message.additional_attributes,
    processed_message_content: message.processed_message_content,
    sentiment: message.sentiment,
    conversation: {
      assignee_id: conversation.assigneeId,
      unread_count: conversation.unreadCount,
      last_activity_at: unixSeconds(conversation.lastActivityAt),
      contact_inbox: { source_id: conversation.sourceId },
    },
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
    ...(sender ? { sender: senderPushEventData(sender, inbox) } : {}),
  };
}

/** Messages::WebhookContentNormalizer: Markdown hard breaks ("\\" + newline) become newlines, trailing newlines go. */
function normalizedContent(content: string | null): string | null {
  return content === null ? null : content.replace(/\\\r?\n/g, "\n").replace(/[\r\n]+$/, "");
}

export interface MessageWebhookContext {
  account: AccountRef;
  inbox: Inbox;
  /** conversationWebhookData of the message's conversation. */
  conversation: Record<string, unknown>;
}

/** Message#webhook_data (reference section 1.2): string message_type, ISO created_at, no status. */
/** Message#push_event_data adds the client's echo_id when one was given (never stored, so only where the message is created). */
export function withEchoId<T extends object>(data: T, echoId: string | null | undefined): T & { echo_id?: string } {
  return echoId ? { ...data, echo_id: echoId } : data;
}

export function messageWebhookData(message: Message, sender: MessageSender | null, { account, inbox, conversation }: MessageWebhookContext) {
  return {
    account,
    additional_attributes: message.additional_attributes,
    content_attributes: message.content_attributes,
    content_type: message.content_type,
    content: normalizedContent(message.content),
    conversation,
    created_at: iso(message.created_at),
    id: message.id,
    inbox: { id: inbox.id, name: inbox.name },
    message_type: message.messageTypeName,
    private: message.private,
    sender: sender ? senderWebhookData(sender, account) : null,
    source_id: message.source_id,
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
  };
}
