import { createHmac, timingSafeEqual } from "node:crypto";
import type { Knex } from "knex";
import { AccountSuspended, ApiError, NotFound } from "../errors";
import { Account } from "../models/Account";
import { ChannelApi } from "../models/ChannelApi";
import { Contact } from "../models/Contact";
import { ContactInbox } from "../models/ContactInbox";
import { Conversation } from "../models/Conversation";
import { Inbox } from "../models/Inbox";
import { MESSAGE_TYPE, type Message } from "../models/Message";
import { publicMessage } from "../presenters/publicApi";
import { loadSenders } from "../conversations/messageSenders";

/** The API inbox a public request names by its inbox_identifier, with its account. */
export interface ApiInboxScope {
  channel: ChannelApi;
  inbox: Inbox;
  account: Account;
}

/**
 * Public::Api::V1::InboxesController#set_inbox_channel (find_by! → 404). An account whose deletion
 * was requested is gone; a suspended one answers 401, as the widget does.
 */
export async function findApiInbox(db: Knex, identifier: string): Promise<ApiInboxScope> {
  const channel = await ChannelApi.query(db).findOne({ identifier });
  const inbox = channel && (await Inbox.query(db).findOne({ channel_type: "Channel::Api", channel_id: channel.id }));
  const account = inbox && (await Account.findLive(inbox.account_id, db));
  if (!channel || !inbox || !account) throw NotFound();
  if (account.status === "suspended") throw AccountSuspended();
  return { channel, inbox, account };
}

/** set_contact_inbox: the contact inbox of this inbox with that source_id (find_by! → 404). */
export async function findPublicContactInbox(db: Knex, { inbox }: ApiInboxScope, sourceId: string): Promise<ContactInbox> {
  const contactInbox = await ContactInbox.query(db).findOne({ inbox_id: inbox.id, source_id: sourceId });
  if (!contactInbox) throw NotFound();
  return contactInbox;
}

/**
 * The conversations a contact inbox reaches: every conversation of its contact once the contact's
 * identity is HMAC-verified, otherwise only those started through this contact inbox.
 */
export function reachableConversations(db: Knex, contactInbox: ContactInbox) {
  const query = Conversation.query(db).where("account_id", contactInbox.account_id);
  return contactInbox.hmac_verified ? query.where("contact_id", contactInbox.contact_id) : query.where("contact_inbox_id", contactInbox.id);
}

export async function findPublicConversation(db: Knex, contactInbox: ContactInbox, displayId: number): Promise<Conversation> {
  const conversation = await reachableConversations(db, contactInbox).findOne({ display_id: displayId });
  if (!conversation) throw NotFound();
  return conversation;
}

export const HmacFailed = () => new ApiError(401, { error: "HMAC failed: Invalid Identifier Hash Provided" });
export const HmacIdentifierMismatch = () => new ApiError(401, { error: "HMAC failed: Identifier does not match contact" });

/** OpenSSL::HMAC.hexdigest('sha256', hmac_token, identifier), compared in constant time (API and web widget inboxes alike). */
export function identifierHashValid(channel: { hmac_token: string }, identifier: string | undefined, hash: string | undefined): boolean {
  const expected = Buffer.from(
    createHmac("sha256", channel.hmac_token)
      .update(identifier ?? "")
      .digest("hex"),
  );
  const given = Buffer.from(hash ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The contacts controller's process_hmac: nothing to check without an identifier_hash unless the
 * inbox makes it mandatory; a wrong hash, or a right one for an identifier other than the one the
 * contact already has, is refused. A contact inbox whose contact carries that identifier becomes
 * verified, which lets it reach all of the contact's conversations.
 */
export async function processHmac(
  db: Knex,
  { channel }: ApiInboxScope,
  contactInbox: ContactInbox | undefined,
  params: { identifier?: string; identifier_hash?: string },
): Promise<ContactInbox | undefined> {
  if (!params.identifier_hash && !channel.hmac_mandatory) return contactInbox;
  if (!identifierHashValid(channel, params.identifier, params.identifier_hash)) throw HmacFailed();
  if (!contactInbox) return contactInbox;
  const contact = await Contact.query(db).findById(contactInbox.contact_id).throwIfNotFound();
  if (contact.identifier && contact.identifier !== params.identifier) throw HmacIdentifierMismatch();
  if (contact.identifier !== params.identifier || contactInbox.hmac_verified) return contactInbox;
  return ContactInbox.query(db).patchAndFetchById(contactInbox.id, { hmac_verified: true });
}

/**
 * update_last_seen with Conversations::UpdateMessageStatusJob: the contact has seen everything
 * sent to it up to now, so those messages read as read. One statement each, no events (Chatwoot
 * uses update_all).
 */
export async function markSeenByContact(db: Knex, conversation: Conversation): Promise<void> {
  const now = new Date();
  await db.transaction(async (trx) => {
    await trx("conversations").where("id", conversation.id).update({ contact_last_seen_at: now });
    await trx("messages")
      .where("conversation_id", conversation.id)
      .whereIn("status", ["sent", "delivered"])
      .whereNot("message_type", MESSAGE_TYPE.incoming)
      .where("created_at", "<=", now)
      .update({ status: "read" });
  });
}

/** Chatwoot's contact_resolved activity text, for a contact closing its own conversation. */
export const contactResolvedActivity = (contactName: string) => `Conversation was resolved by ${contactName}`;

/** Messages of one conversation as the public client API and the widget list them, with their senders. */
export async function presentPublicMessages(db: Knex, conversation: Conversation, messages: Message[]) {
  const senders = await loadSenders(db, conversation.account_id, messages);
  return messages.map((message) => publicMessage(message, conversation, senders.get(message.id) ?? null));
}
