import type { Knex } from "knex";
import { sql, sqlText } from "../db/sql";
import { Batch } from "../db/batch";
import { CouldNotProcess } from "../errors";
import { jsonEqual } from "../lib/jsonEqual";
import { AgentBot } from "../models/AgentBot";
import { Contact } from "../models/Contact";
import { Conversation } from "../models/Conversation";
import { Inbox } from "../models/Inbox";
import { MESSAGE_STATUSES, MESSAGE_TYPE, Message, type MessageStatus, type SenderType } from "../models/Message";
import type { ConversationGraph, LoadedMessage } from "../presenters/conversation";
import { contactChangedAttributes } from "../presenters/contact";
import { type Actor, SYSTEM_REOPENED_ACTIVITY } from "./activityMessages";
import { insertAttachments, purgeDeletedFilesQuietly } from "../services/attachments";
import { type ConversationPatch, changeConversation } from "./changes";
import { inUnit, noteActor, type Unit } from "./unit";
import { loadMessage } from "./graph";
import { type MessageInput, validateMessage } from "./messageInput";

export interface SenderRef {
  type: SenderType;
  id: number;
}

/** Message#prevent_message_flooding: CONVERSATION_MESSAGE_PER_MINUTE_LIMIT's default. */
const MESSAGES_PER_MINUTE = 200;
const DELETED_CONTENT = "This message was deleted";

/** MessageBuilder#message_sender: sender_type AgentBot with sender_id names the bot an outgoing message is from. */
export function botSenderId(body: { sender_type?: string; sender_id?: number }): number | undefined {
  return body.sender_type === "AgentBot" ? body.sender_id : undefined;
}

/**
 * MessageBuilder#sender: outgoing messages are the caller's (or the agent bot named by
 * sender_type/sender_id); every other type is the conversation's contact's.
 */
export async function senderFor(
  conversation: Pick<Conversation, "account_id" | "contact_id">,
  messageType: string | undefined,
  actor: Actor,
  requestedBotId?: number,
): Promise<SenderRef | null> {
  if ((messageType ?? "outgoing") !== "outgoing") return conversation.contact_id ? { type: "Contact", id: conversation.contact_id } : null;
  if (requestedBotId !== undefined) {
    const bot = await AgentBot.accessibleTo(conversation.account_id).findById(requestedBotId);
    if (bot) return { type: "AgentBot", id: bot.id };
  }
  // Automation's messages have no sender, as Chatwoot's MessageBuilder.new(nil, ...) in ActionService.
  if (!actor || actor.kind === "automation_rule") return null;
  return actor.kind === "user" ? { type: "User", id: actor.user.id } : { type: "AgentBot", id: actor.bot.id };
}

/** Message#human_response?: an agent's own reply, not automation's or a campaign's. */
function humanResponse(message: Message): boolean {
  return (
    message.message_type === MESSAGE_TYPE.outgoing &&
    !message.content_attributes.automation_rule_id &&
    !message.additional_attributes.campaign_id &&
    (message.sender_type === "User" || Boolean(message.content_attributes.external_echo))
  );
}

/** Message#valid_first_reply?: the first public human reply of the conversation. */
async function firstReply(trx: Knex.Transaction, conversation: Conversation, message: Message): Promise<boolean> {
  if (!humanResponse(message) || message.private || conversation.first_reply_created_at) return false;
  const [{ count }] = await trx("messages")
    .where({ conversation_id: conversation.id, message_type: MESSAGE_TYPE.outgoing, private: false })
    .whereNotNull("sender_type")
    .whereNot("sender_type", "AgentBot")
    .whereRaw("additional_attributes->'campaign_id' IS NULL")
    .count<{ count: string }[]>("* as count");
  return Number(count) <= 1;
}

/** Message#reopen_conversation: a contact writing into a snoozed or resolved conversation reopens it. */
async function reopenFor(unit: Unit, conversation: Conversation, actor: Actor): Promise<Conversation> {
  if (conversation.status === "snoozed") return changeConversation(unit, conversation.id, { status: "open" }, { actor });
  if (conversation.status !== "resolved") return conversation;
  const inbox = await Inbox.query(unit.trx).findById(conversation.inbox_id).throwIfNotFound();
  const activeBot = await unit.trx("agent_bot_inboxes").where({ inbox_id: inbox.id, status: "active" }).first("id");
  // The bot takes the reopened conversation first.
  if (activeBot) return changeConversation(unit, conversation.id, { status: "pending" }, { actor });
  if (inbox.channel_type === "Channel::Api") {
    return changeConversation(unit, conversation.id, { status: "open" }, { actor, statusActivity: SYSTEM_REOPENED_ACTIVITY });
  }
  return changeConversation(unit, conversation.id, { status: "open" }, { actor });
}

/** The waiting_since / first_reply_created_at change a new message makes (Message#dispatch_create_events). */
async function replyTimes(trx: Knex.Transaction, conversation: Conversation, message: Message): Promise<ConversationPatch> {
  if (await firstReply(trx, conversation, message)) return { first_reply_created_at: message.created_at, waiting_since: null };
  const botResponse = message.message_type === MESSAGE_TYPE.outgoing && message.sender_type === "AgentBot";
  if (conversation.waiting_since && !message.private && (humanResponse(message) || botResponse)) return { waiting_since: null };
  if (message.message_type === MESSAGE_TYPE.incoming && !conversation.waiting_since) return { waiting_since: message.created_at };
  return {};
}

/** Contact#last_activity_at moves with each message the contact sends, announced as contact_updated. */
async function touchContact(unit: Unit, conversation: Conversation, contactId: number): Promise<void> {
  const before = await Contact.query(unit.trx).findById(contactId).forUpdate();
  if (!before) return;
  const [after] = await Contact.query(unit.trx).patch({ last_activity_at: new Date() }).where("id", contactId).returning("*");
  const changed = contactChangedAttributes(before, after);
  if (changed) unit.events.push({ name: "contact_updated", conversationId: conversation.id, contactId, changed });
}

/**
 * Writes a message with its side effects, in the order Chatwoot runs them: the conversation's
 * activity moves, a contact's message reopens a snoozed or resolved conversation, message_created
 * is queued (not for activity messages), then the reply clocks move (waiting_since starts with a
 * contact's message and stops with an agent's or bot's public reply; the first human reply is
 * stamped) and the contact's last activity.
 */
export async function insertMessage(unit: Unit, conversation: Conversation, input: MessageInput, sender: SenderRef | null, actor: Actor): Promise<Message> {
  const valid = validateMessage(input);
  noteActor(unit, actor);
  const { trx } = unit;
  // One round trip: the lock, then the message, written only below the flood limit (counted once
  // the lock is held, so it sees every message before this one), and the conversation's activity.
  const batch = new Batch(trx);
  const locked = batch.rows(sql`select * from conversations where id = ${conversation.id} for update`);
  const inserted = batch.rows(sql`with message as (
      insert into messages (account_id, inbox_id, conversation_id, content, message_type, content_type, content_attributes,
        additional_attributes, private, source_id, sender_type, sender_id)
      select c.account_id, c.inbox_id, c.id, ${valid.content}, ${valid.messageType}, ${valid.contentType}, ${JSON.stringify(valid.contentAttributes)}::jsonb,
        ${JSON.stringify(valid.additionalAttributes)}::jsonb, ${input.private ?? false}, ${input.source_id ?? null}, ${sender?.type ?? null}, ${sender?.id ?? null}
      from conversations c
      where c.id = ${conversation.id}
        and (select count(*) from messages where conversation_id = c.id and created_at > now() - interval '1 minute') < ${MESSAGES_PER_MINUTE}
      returning *
    ), touched as (
      update conversations set last_activity_at = ${Conversation.activityAfter(sqlText("message.created_at"))},
        last_incoming_at = case when message.message_type = ${MESSAGE_TYPE.incoming} then greatest(conversations.last_incoming_at, message.created_at) else conversations.last_incoming_at end,
        updated_at = now()
      from message where conversations.id = message.conversation_id
    )
    select * from message`);
  await batch.run();
  const [lockedRow] = await locked;
  if (!lockedRow) throw new Error(`conversation ${conversation.id} vanished inside its transaction`);
  const [messageRow] = await inserted;
  if (!messageRow) throw CouldNotProcess("Validation failed: Too many messages");
  // The row as it was locked, before this statement's update: what the reply clocks and the reopen read.
  const current = Conversation.fromDatabaseJson(lockedRow);
  const message = Message.fromDatabaseJson(messageRow) as Message;
  unit.newMessages.push(message);
  await insertAttachments(trx, message, input.attachments ?? []);

  // The reply clocks read waiting_since and first_reply_created_at, which only the reopen may have moved since the lock: its row serves without a re-read.
  const reopened = message.message_type === MESSAGE_TYPE.incoming && !current.muted ? await reopenFor(unit, current, actor) : current;
  if (message.webhookSendable) unit.events.push({ name: "message_created", conversationId: current.id, messageId: message.id, echoId: input.echo_id });

  const times = await replyTimes(trx, reopened, message);
  if (Object.keys(times).length) await changeConversation(unit, current.id, times, { actor });
  if (message.message_type === MESSAGE_TYPE.incoming && sender?.type === "Contact") await touchContact(unit, current, sender.id);
  return message;
}

/** A message as its unit left it, with its sender and its conversation's graph (which its events loaded), for a response. */
export interface PostedMessage extends LoadedMessage {
  graph: ConversationGraph;
}

/** Creates a message in its own transaction (the messages endpoint, templates sent by timers). */
export async function createMessage(db: Knex, conversation: Conversation, input: MessageInput, sender: SenderRef | null, actor: Actor): Promise<PostedMessage> {
  return inUnit(
    db,
    (unit) => insertMessage(unit, conversation, input, sender, actor),
    async (message, { trx, graphOf }) => {
      const graph = await graphOf(message.conversation_id);
      return { ...(await loadMessage(trx, graph, message.id)), graph };
    },
  );
}

/** Messages::StatusUpdateService: a known status, never back from read to delivered; the error is kept only for failed. */
export async function updateMessageStatus(db: Knex, message: Message, status: string, externalError?: string | null): Promise<Message> {
  if (!(MESSAGE_STATUSES as readonly string[]).includes(status)) return message;
  if (message.status === "read" && status === "delivered") return message;
  const { external_error: _previous, ...rest } = message.content_attributes;
  const content_attributes = status === "failed" ? { ...rest, external_error: externalError ?? null } : rest;
  return updateMessage(db, message, { status: status as MessageStatus, content_attributes });
}

/** Chatwoot keeps a deleted message as a stub that says so, and destroys its attachments (their files go after the commit). */
export async function deleteMessage(db: Knex, message: Message): Promise<Message> {
  const stub = { content: DELETED_CONTENT, content_type: "text" as const, content_attributes: { deleted: true } };
  const deleted = await inUnit(db, async (unit) => {
    const files = await unit.trx("attachments").where("message_id", message.id).delete();
    return changed(message, stub) || files ? patchMessage(unit, message, stub) : message;
  });
  await purgeDeletedFilesQuietly(db, message.account_id);
  return deleted;
}

const changed = (message: Message, patch: Partial<Message>) => Object.entries(patch).some(([key, value]) => !jsonEqual(value, message[key as keyof Message]));

async function patchMessage(unit: Unit, message: Message, patch: Partial<Message>): Promise<Message> {
  const updated = await Message.query(unit.trx).patchAndFetchById(message.id, patch);
  if (updated.webhookSendable) unit.events.push({ name: "message_updated", conversationId: message.conversation_id, messageId: message.id });
  return updated;
}

/** The public API's message update: a contact's answers to a form or a choice, kept as content_attributes.submitted_values. */
export async function submitMessageValues(db: Knex, message: Message, submittedValues: Record<string, unknown>[]): Promise<Message> {
  return updateMessage(db, message, { content_attributes: { ...message.content_attributes, submitted_values: submittedValues } });
}

async function updateMessage(db: Knex, message: Message, patch: Partial<Message>): Promise<Message> {
  if (!changed(message, patch)) return message;
  return inUnit(db, (unit) => patchMessage(unit, message, patch));
}
