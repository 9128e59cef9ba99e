import type { AgentBot } from "../models/AgentBot";
import type { Contact } from "../models/Contact";
import type { ContactInbox } from "../models/ContactInbox";
import type { Conversation } from "../models/Conversation";
import type { Inbox } from "../models/Inbox";
import type { Member } from "../models/InboxMember";
import type { Message } from "../models/Message";
import type { Team } from "../models/Team";
import { presentAgentBotSlim } from "./agentBot";
import { contactPushEventData, presentContact } from "./contact";
import { presentInboxMember } from "./inbox";
import { type AccountRef, agentBotPushEventData, type MessageConversation, type MessageSender, messagePushEventData, userPushEventData } from "./message";
import { presentTeam } from "./team";
import { iso, unixSeconds } from "./time";

export interface LoadedMessage {
  message: Message;
  sender: MessageSender | null;
}

/** A conversation with everything its payloads show, loaded in a few queries. */
export interface ConversationGraph {
  conversation: Conversation;
  account: AccountRef;
  inbox: Inbox;
  contact: Contact | null;
  contactInbox: ContactInbox | null;
  assignee: Member | null;
  assigneeBot: AgentBot | null;
  team: Team | null;
  unreadCount: number;
  /** The newest message of any kind (the API's `messages`). */
  lastMessage: LoadedMessage | null;
  /** The newest message that is not an activity (the API's `last_non_activity_message`). */
  lastNonActivityMessage: LoadedMessage | null;
  /** The newest message that is neither an activity nor private (the webhook's `messages`). */
  lastChatMessage: LoadedMessage | null;
}

export function messageConversation(graph: ConversationGraph): MessageConversation {
  return {
    displayId: graph.conversation.display_id,
    assigneeId: graph.conversation.assignee_id,
    unreadCount: graph.unreadCount,
    lastActivityAt: graph.conversation.last_activity_at,
    sourceId: graph.contactInbox?.source_id ?? null,
  };
}

/** Message#push_event_data of a message of the graph's conversation. */
export function conversationMessage(graph: ConversationGraph, { message, sender }: LoadedMessage) {
  return messagePushEventData(message, messageConversation(graph), sender, graph.inbox);
}

function pushMessage(graph: ConversationGraph, loaded: LoadedMessage | null) {
  return loaded ? conversationMessage(graph, loaded) : null;
}

/** Rails' `time.to_i` on a nil time is 0. */
const seconds = (date: Date | null) => unixSeconds(date) ?? 0;

/** The assigned entity: a bot (agent_bot_slim) or a user of the account (agent), with its type. */
function assigneeMeta({ assignee, assigneeBot }: ConversationGraph) {
  if (assigneeBot) return { assignee: presentAgentBotSlim(assigneeBot), assignee_type: "AgentBot" };
  if (assignee) return { assignee: presentInboxMember(assignee), assignee_type: "User" };
  return {};
}

/**
 * app/views/api/v1/conversations/partials/_conversation.json.jbuilder; the team's `is_member` is
 * about the caller, whose teams are callerTeamIds.
 */
export function presentConversation(graph: ConversationGraph, callerTeamIds: ReadonlySet<number>) {
  const { conversation, inbox, contact, contactInbox } = graph;
  // The newest message is most often the newest non-activity one too: presented once, shown twice.
  const last = pushMessage(graph, graph.lastMessage);
  const lastNonActivity = graph.lastNonActivityMessage?.message === graph.lastMessage?.message ? last : pushMessage(graph, graph.lastNonActivityMessage);
  return {
    meta: {
      sender: contact ? presentContact(contact) : null,
      channel: inbox.channel_type,
      ...assigneeMeta(graph),
      ...(graph.team ? { team: presentTeam(graph.team, callerTeamIds) } : {}),
      hmac_verified: contactInbox?.hmac_verified ?? null,
    },
    id: conversation.display_id,
    messages: last ? [last] : [],
    account_id: conversation.account_id,
    uuid: conversation.uuid,
    additional_attributes: conversation.additional_attributes,
    agent_last_seen_at: seconds(conversation.agent_last_seen_at),
    assignee_last_seen_at: seconds(conversation.assignee_last_seen_at),
    can_reply: true,
    contact_last_seen_at: seconds(conversation.contact_last_seen_at),
    custom_attributes: conversation.custom_attributes,
    inbox_id: conversation.inbox_id,
    labels: conversation.labels,
    muted: conversation.muted,
    snoozed_until: iso(conversation.snoozed_until),
    status: conversation.status,
    created_at: seconds(conversation.created_at),
    updated_at: seconds(conversation.updated_at),
    timestamp: seconds(conversation.last_activity_at),
    first_reply_created_at: seconds(conversation.first_reply_created_at),
    unread_count: graph.unreadCount,
    last_non_activity_message: lastNonActivity,
    last_activity_at: seconds(conversation.last_activity_at),
    priority: conversation.priority,
    waiting_since: seconds(conversation.waiting_since),
    sla_policy_id: null,
  };
}

/** The full contact_inboxes row, as Rails serialises a record. */
function contactInboxRecord(contactInbox: ContactInbox) {
  return {
    id: contactInbox.id,
    contact_id: contactInbox.contact_id,
    inbox_id: contactInbox.inbox_id,
    source_id: contactInbox.source_id,
    created_at: iso(contactInbox.created_at),
    updated_at: iso(contactInbox.updated_at),
    hmac_verified: contactInbox.hmac_verified,
    pubsub_token: contactInbox.pubsub_token,
  };
}

function assigneePushEventData(graph: ConversationGraph) {
  if (graph.assignee) return userPushEventData(graph.assignee.user, graph.assignee.accountUser.availability);
  if (graph.assigneeBot) return agentBotPushEventData(graph.assigneeBot, graph.inbox);
  return null;
}

/** Conversation#webhook_data (Conversations::EventDataPresenter push_data + account), reference section 1.2. */
export function conversationWebhookData(graph: ConversationGraph) {
  const { conversation, contactInbox } = graph;
  return {
    additional_attributes: conversation.additional_attributes,
    can_reply: true,
    channel: graph.inbox.channel_type,
    contact_inbox: contactInbox ? contactInboxRecord(contactInbox) : null,
    id: conversation.display_id,
    inbox_id: conversation.inbox_id,
    messages: graph.lastChatMessage ? [pushMessage(graph, graph.lastChatMessage)] : [],
    labels: conversation.labels,
    meta: {
      sender: graph.contact ? contactPushEventData(graph.contact) : null,
      assignee: assigneePushEventData(graph),
      assignee_type: graph.assignee ? "User" : graph.assigneeBot ? "AgentBot" : null,
      team: graph.team ? graph.team.pushEventData() : null,
      hmac_verified: contactInbox?.hmac_verified ?? null,
    },
    status: conversation.status,
    custom_attributes: conversation.custom_attributes,
    snoozed_until: iso(conversation.snoozed_until),
    unread_count: graph.unreadCount,
    first_reply_created_at: iso(conversation.first_reply_created_at),
    priority: conversation.priority,
    waiting_since: seconds(conversation.waiting_since),
    agent_last_seen_at: seconds(conversation.agent_last_seen_at),
    contact_last_seen_at: seconds(conversation.contact_last_seen_at),
    last_activity_at: seconds(conversation.last_activity_at),
    timestamp: seconds(conversation.last_activity_at),
    created_at: seconds(conversation.created_at),
    updated_at: conversation.updated_at.getTime() / 1000,
    account: graph.account,
  };
}
