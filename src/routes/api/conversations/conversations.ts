import { NotFound, PermissionDenied } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams, pageNumber } from "../../../http/schemas";
import { Contact } from "../../../models/Contact";
import { ContactInbox } from "../../../models/ContactInbox";
import { Conversation } from "../../../models/Conversation";
import { Inbox } from "../../../models/Inbox";
import { canSeeInbox, findVisibleInbox } from "../../../policies/inboxes";
import { setPriority } from "../../../conversations/attributes";
import { conversationCounts, filterConversations, listConversations, unreadCounts } from "../../../conversations/list";
import { createConversation } from "../../../conversations/newConversation";
import { requireAdministrator } from "../../../policies";
import { botSenderId, senderFor } from "../../../conversations/messages";
import { headOk } from "../../../http/headOk";
import { actorOf, findConversation, usersOnly, viewerOf } from "../../../policies/conversations";
import { presentConversations, presentOne, presentShown } from "./present";
import {
  conversationCreate,
  conversationFilterResponse,
  conversationListQuery,
  conversationListResponse,
  conversationMetaResponse,
  conversationResponse,
  conversationUpdate,
  unreadCountsResponse,
} from "./schema";
import { filterPageQuery, filterRequest } from "../../../schemas/filter";

/**
 * The conversation's contact inbox for create: with inbox_id and contact_id, found or made for
 * that pair (the given source_id or a new one); otherwise the account's contact inbox with that
 * source_id. An agent needs to be a member of its inbox.
 */
async function contactInboxFor(ctx: AppContext, body: { inbox_id?: number; contact_id?: number; source_id?: string }) {
  const accountId = ctx.state.account!.id;
  const inbox = body.inbox_id === undefined ? undefined : await findVisibleInbox(ctx, body.inbox_id);
  if (inbox && body.contact_id !== undefined) {
    const contact = await Contact.findInAccount(accountId, body.contact_id);
    if (!contact) throw NotFound();
    return { inbox, contactId: contact.id, contactInbox: { contactId: contact.id, sourceId: body.source_id } };
  }
  if (body.contact_id !== undefined && !(await Contact.findInAccount(accountId, body.contact_id))) throw NotFound();
  const contactInbox = body.source_id
    ? await ContactInbox.query().findOne({ account_id: accountId, source_id: body.source_id, ...(inbox ? { inbox_id: inbox.id } : {}) })
    : undefined;
  if (!contactInbox) throw NotFound();
  const ownInbox = inbox ?? (await Inbox.findInAccount(accountId, contactInbox.inbox_id));
  if (!ownInbox) throw NotFound();
  if (!(await canSeeInbox(ctx, ownInbox))) throw PermissionDenied();
  return { inbox: ownInbox, contactId: contactInbox.contact_id, contactInbox };
}

/** The list's page with its counts, in the list's envelope. */
async function answerList(ctx: AppContext, filters: Parameters<typeof listConversations>[2]): Promise<void> {
  const { counts, conversations } = await listConversations(ctx.deps.knex, viewerOf(ctx), filters);
  ctx.body = { data: { meta: counts, payload: await presentConversations(ctx, conversations) } };
}

export function registerConversationRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/conversations";
  const one = `${path}/:id`;

  router.route(
    {
      method: "get",
      path: `${path}/meta`,
      summary: "Conversation counts for the list filters",
      params: accountParams,
      query: conversationListQuery,
      response: conversationMetaResponse,
      middleware: [usersOnly],
    },
    async (ctx, { query }) => {
      ctx.body = { meta: await conversationCounts(ctx.deps.knex, viewerOf(ctx), query) };
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/unread_counts`,
      summary: "Open conversations with unread incoming messages, by inbox, label and assignment",
      params: accountParams,
      response: unreadCountsResponse,
      middleware: [usersOnly],
    },
    async (ctx) => {
      ctx.body = await unreadCounts(ctx.deps.knex, viewerOf(ctx));
    },
  );

  router.route(
    {
      method: "get",
      path,
      summary: "List conversations (25 per page) with counts",
      params: accountParams,
      query: conversationListQuery,
      response: conversationListResponse,
      middleware: [usersOnly],
    },
    async (ctx, { query }) => {
      await answerList(ctx, query);
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/search`,
      summary: "Conversations with a message matching `q` (ConversationFinder's search), as the list answers them",
      params: accountParams,
      query: conversationListQuery,
      response: conversationListResponse,
      middleware: [usersOnly],
    },
    async (ctx, { query }) => {
      await answerList(ctx, { ...query, q: query.q ?? "" });
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/filter`,
      summary: "Conversations of any status matching Chatwoot's filter payload, 25 a page, with counts",
      params: accountParams,
      query: filterPageQuery,
      body: filterRequest,
      response: conversationFilterResponse,
      middleware: [usersOnly],
    },
    async (ctx, { query, body }) => {
      const page = pageNumber(query.page ?? body.page);
      const { counts, conversations } = await filterConversations(ctx.deps.knex, viewerOf(ctx), body.payload, page);
      ctx.body = { meta: counts, payload: await presentConversations(ctx, conversations) };
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Create a conversation, optionally with its first message",
      params: accountParams,
      body: conversationCreate,
      response: conversationResponse,
    },
    async (ctx, { body }) => {
      const accountId = ctx.state.account!.id;
      const { inbox, contactId, contactInbox } = await contactInboxFor(ctx, body);
      const actor = actorOf(ctx);
      const message = body.message && {
        input: body.message,
        sender: await senderFor({ account_id: accountId, contact_id: contactId }, body.message.message_type, actor, botSenderId(body.message)),
      };
      const conversation = await createConversation(
        ctx.deps.knex,
        {
          accountId,
          inbox,
          contactInbox,
          status: body.status,
          assigneeId: body.assignee_id,
          teamId: body.team_id,
          snoozedUntil: body.snoozed_until,
          additionalAttributes: body.additional_attributes,
          customAttributes: body.custom_attributes,
          message,
        },
        actor,
      );
      ctx.body = await presentOne(ctx, conversation);
    },
  );

  router.route(
    { method: "get", path: one, summary: "Get a conversation", params: accountResourceParams, response: conversationResponse },
    async (ctx, { params }) => {
      ctx.body = await presentShown(ctx, params.id);
    },
  );

  router.route(
    {
      method: UPDATE,
      path: one,
      summary: "Update a conversation (its priority)",
      params: accountResourceParams,
      body: conversationUpdate,
      response: conversationResponse,
    },
    async (ctx, { params, body }) => {
      let conversation = await findConversation(ctx, params.id);
      if (body.priority !== undefined) conversation = await setPriority(ctx.deps.knex, conversation, body.priority, actorOf(ctx));
      ctx.body = await presentOne(ctx, conversation);
    },
  );

  router.route(
    {
      method: "delete",
      path: one,
      summary: "Delete a conversation with its messages (administrators)",
      params: accountResourceParams,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      // Found (404) and shown (401) before the destroy? check, as Chatwoot's before_action orders them.
      const conversation = await findConversation(ctx, params.id);
      requireAdministrator(ctx);
      await Conversation.query(ctx.deps.knex).deleteById(conversation.id);
      headOk(ctx);
    },
  );
}
