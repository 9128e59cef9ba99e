import type { Knex } from "knex";
import type { AppContext } from "../../http/context";
import { recordTyping } from "../../realtime/liveEvents";
import type { ApiRouter } from "../../http/router";
import { headOk } from "../../http/headOk";
import { Contact } from "../../models/Contact";
import type { ContactInbox } from "../../models/ContactInbox";
import { Conversation } from "../../models/Conversation";
import { Inbox } from "../../models/Inbox";
import { Message } from "../../models/Message";
import { publicConversation } from "../../presenters/publicApi";
import { resolveConversation } from "../../conversations/status";
import { loadSenders } from "../../conversations/messageSenders";
import { createConversation } from "../../conversations/newConversation";
import { contactResolvedActivity, findPublicContactInbox, findPublicConversation, markSeenByContact, reachableConversations } from "../../services/publicApi";
import { contactParams, conversationParams, publicConversationCreate, publicConversationResponse, publicTypingBody } from "./schema";

/** The conversations as the public views show them, each with all its chat messages, in a fixed number of queries. */
export async function presentPublicConversations(db: Knex, conversations: Conversation[]) {
  if (!conversations.length) return [];
  const ids = conversations.map((c) => c.id);
  const messages = await Message.query(db)
    .whereIn("conversation_id", ids)
    .modify(Message.publicOnly)
    .orderBy([{ column: "created_at" }, { column: "id" }]);
  const senders = await loadSenders(db, conversations[0]!.account_id, messages);
  const contacts = new Map((await Contact.query(db).findByIds([...new Set(conversations.map((c) => c.contact_id!))])).map((c) => [c.id, c]));
  const inboxes = new Map((await Inbox.query(db).findByIds([...new Set(conversations.map((c) => c.inbox_id))])).map((i) => [i.id, i]));
  return conversations.map((conversation) =>
    publicConversation({
      conversation,
      contact: contacts.get(conversation.contact_id!)!,
      inbox: inboxes.get(conversation.inbox_id),
      messages: messages.filter((m) => m.conversation_id === conversation.id).map((message) => ({ message, sender: senders.get(message.id) ?? null })),
    }),
  );
}

async function present(db: Knex, conversation: Conversation) {
  return (await presentPublicConversations(db, [conversation]))[0];
}

async function contactInboxOf(ctx: AppContext, sourceId: string): Promise<ContactInbox> {
  return findPublicContactInbox(ctx.deps.knex, ctx.state.apiInbox!, sourceId);
}

export function registerPublicConversationRoutes(router: ApiRouter) {
  const path = "/contacts/:contact_identifier/conversations";
  const one = `${path}/:conversation_id`;

  router.route(
    {
      method: "get",
      path,
      summary: "The contact's conversations (all of the contact's once HMAC-verified, else this contact inbox's)",
      params: contactParams,
      response: publicConversationResponse.array(),
    },
    async (ctx, { params }) => {
      const contactInbox = await contactInboxOf(ctx, params.contact_identifier);
      ctx.body = await presentPublicConversations(ctx.deps.knex, await reachableConversations(ctx.deps.knex, contactInbox).orderBy("id"));
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Start a conversation for the contact",
      params: contactParams,
      body: publicConversationCreate,
      response: publicConversationResponse,
    },
    async (ctx, { params, body }) => {
      const { account, inbox } = ctx.state.apiInbox!;
      const contactInbox = await contactInboxOf(ctx, params.contact_identifier);
      const conversation = await createConversation(
        ctx.deps.knex,
        { accountId: account.id, inbox, contactInbox, customAttributes: body.custom_attributes },
        null,
      );
      ctx.body = await present(ctx.deps.knex, conversation);
    },
  );

  router.route(
    { method: "get", path: one, summary: "Get a conversation of the contact", params: conversationParams, response: publicConversationResponse },
    async (ctx, { params }) => {
      const contactInbox = await contactInboxOf(ctx, params.contact_identifier);
      ctx.body = await present(ctx.deps.knex, await findPublicConversation(ctx.deps.knex, contactInbox, params.conversation_id));
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/toggle_status`,
      summary: "The contact resolves the conversation (a resolved one stays as it is)",
      params: conversationParams,
      response: publicConversationResponse,
    },
    async (ctx, { params }) => {
      const contactInbox = await contactInboxOf(ctx, params.contact_identifier);
      let conversation = await findPublicConversation(ctx.deps.knex, contactInbox, params.conversation_id);
      if (conversation.status !== "resolved") {
        const contact = await Contact.query(ctx.deps.knex).findById(conversation.contact_id!).throwIfNotFound();
        conversation = await resolveConversation(ctx.deps.knex, conversation, null, { activityContent: contactResolvedActivity(contact.name) });
      }
      ctx.body = await present(ctx.deps.knex, conversation);
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/toggle_typing`,
      summary: "Typing indicator: conversation.typing_on/off to the conversation's agents",
      params: conversationParams,
      body: publicTypingBody,
    },
    async (ctx, { params, body }) => {
      const conversation = await findPublicConversation(ctx.deps.knex, await contactInboxOf(ctx, params.contact_identifier), params.conversation_id);
      await recordTyping(ctx.deps.knex, conversation, { kind: "contact" }, body.typing_status);
      headOk(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/update_last_seen`,
      summary: "The contact has read the conversation: agent messages so far read as read",
      params: conversationParams,
    },
    async (ctx, { params }) => {
      const conversation = await findPublicConversation(ctx.deps.knex, await contactInboxOf(ctx, params.contact_identifier), params.conversation_id);
      await markSeenByContact(ctx.deps.knex, conversation);
      headOk(ctx);
    },
  );
}
