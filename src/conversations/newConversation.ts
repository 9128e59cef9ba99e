import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { ValidationError } from "../errors";
import { AccountUser } from "../models/AccountUser";
import { AgentBotInbox } from "../models/AgentBotInbox";
import { Contact } from "../models/Contact";
import { ContactInbox } from "../models/ContactInbox";
import { Conversation, type ConversationStatus } from "../models/Conversation";
import type { Inbox } from "../models/Inbox";
import { Team } from "../models/Team";
import type { Actor } from "./activityMessages";
import { assigneeOutsideTeam } from "./changes";
import { inUnit } from "./unit";
import { validateCustomAttributes } from "../services/customAttributes";
import type { MessageInput } from "./messageInput";
import { insertMessage, type SenderRef } from "./messages";

/*
 * Building a new conversation is the one place that needs both conversations and messages (a first
 * message is written with it); keeping it here keeps those two modules free of each other.
 */

async function inboxHasActiveBot(db: Knex, inboxId: number): Promise<boolean> {
  return Boolean(await AgentBotInbox.query(db).findOne({ inbox_id: inboxId, status: "active" }));
}

export interface NewConversation {
  accountId: number;
  inbox: Inbox;
  /** An existing contact inbox, or the contact to find or create one for (ContactInboxBuilder). */
  contactInbox: ContactInbox | { contactId: number; sourceId?: string };
  status?: ConversationStatus;
  assigneeId?: number | null;
  teamId?: number | null;
  snoozedUntil?: Date | null;
  additionalAttributes?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
  /** The campaign that opened the conversation (Conversation#campaign_id). */
  campaignId?: number;
  /** A first message, written with the conversation. */
  message?: { input: MessageInput; sender: SenderRef | null };
}

/** Unlike Chatwoot (which silently unassigns), an id that is not a user of the account is refused. */
async function assertAssignable(accountId: number, userId: number): Promise<void> {
  if (!(await AccountUser.membership(accountId, userId))) throw ValidationError.of("assignee", "must exist");
}

/** Unlike Chatwoot (whose team_id has no foreign key), a team that is not the account's is refused. */
async function assertTeam(db: Knex, accountId: number, teamId: number): Promise<void> {
  if (!(await Team.findInAccount(accountId, teamId, db))) throw ValidationError.of("team", "must exist");
}

/**
 * ConversationBuilder + Conversation#determine_conversation_status: a blocked contact's
 * conversation starts resolved, one in an inbox with an active bot pending. An inbox locked to a
 * single conversation gets the contact's existing one instead of a new one. The per-account
 * display id comes from the account row, whose lock orders concurrent creations.
 */
export async function createConversation(db: Knex, input: NewConversation, actor: Actor): Promise<Conversation> {
  if (input.customAttributes) await validateCustomAttributes(db, input.accountId, "conversation_attribute", input.customAttributes);
  if (input.assigneeId) await assertAssignable(input.accountId, input.assigneeId);
  if (input.teamId) await assertTeam(db, input.accountId, input.teamId);
  return inUnit(db, async (unit) => {
    const { trx } = unit;
    const contactInbox =
      input.contactInbox instanceof ContactInbox
        ? input.contactInbox
        : await ContactInbox.findOrCreate(trx, input.contactInbox.contactId, input.inbox, input.contactInbox.sourceId);
    let conversation = input.inbox.lock_to_single_conversation
      ? await Conversation.query(trx).where("contact_inbox_id", contactInbox.id).orderBy("id", "desc").first()
      : undefined;
    if (!conversation) {
      const contact = await Contact.query(trx).findById(contactInbox.contact_id).throwIfNotFound();
      const status: ConversationStatus = contact.blocked ? "resolved" : (await inboxHasActiveBot(trx, input.inbox.id)) ? "pending" : (input.status ?? "open");
      conversation = await Conversation.query(trx)
        .insert({
          account_id: input.accountId,
          display_id: await Conversation.nextDisplayId(trx, input.accountId),
          uuid: randomUUID(),
          inbox_id: input.inbox.id,
          contact_id: contact.id,
          contact_inbox_id: contactInbox.id,
          status,
          team_id: input.teamId ?? null,
          // ensure_assignee_is_from_team: a team given with the conversation keeps only a member of it.
          assignee_id: (await assigneeOutsideTeam(trx, input.teamId ?? null, input.assigneeId ?? null)) ? null : (input.assigneeId ?? null),
          snoozed_until: status === "snoozed" ? (input.snoozedUntil ?? null) : null,
          additional_attributes: input.additionalAttributes ?? {},
          custom_attributes: input.customAttributes ?? {},
          campaign_id: input.campaignId ?? null,
        })
        .returning("*");
      unit.events.push({ name: "conversation_created", conversationId: conversation.id });
    }
    if (input.message) await insertMessage(unit, conversation, input.message.input, input.message.sender, actor);
    return Conversation.query(trx).findById(conversation.id).throwIfNotFound();
  });
}
