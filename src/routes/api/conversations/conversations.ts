import { NotFound, PermissionDenied } from "../../../errors";
import type { AppContext } from "../../../http/context";
import type { ApiRouter } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { Contact } from "../../../models/Contact";
import { ContactInbox } from "../../../models/ContactInbox";
import { Conversation } from "../../../models/Conversation";
import { Inbox } from "../../../models/Inbox";
import { TeamMember } from "../../../models/Team";
import { accessibleInboxIds, canSeeInbox, findVisibleInbox } from "../../../policies/inboxes";
import { presentConversation } from "../../../presenters/conversation";
import { iso } from "../../../presenters/time";
import { finder, sortClause, userIdOf } from "./finder";
import { muteConversation, setPriority, toggleStatus, unmuteConversation } from "../../../services/conversations";
import { loadConversationGraphs } from "../../../services/conversationGraph";
import { createConversation } from "../../../services/newConversation";
import { requireAdministrator } from "../../../policies";
import { senderFor } from "../../../services/messages";
import { filterCondition } from "../../../services/filters/sql";
import { filterPageQuery, filterRequest } from "../customFilters/schema";
import { headOk } from "../../../http/headOk";
import { actorOf, findConversation, usersOnly } from "./access";
import {
  conversationCreate,
  conversationFilterResponse,
  conversationListQuery,
  conversationListResponse,
  conversationMetaResponse,
  conversationResponse,
  conversationUpdate,
  togglePriorityBody,
  toggleStatusBody,
  toggleStatusResponse,
  typingBody,
  unreadCountsResponse,
} from "./schema";

/** ConversationFinder's page size (CONVERSATION_RESULTS_PER_PAGE). */
const PER_PAGE = 25;

export async function presentConversations(ctx: AppContext, conversations: Conversation[]) {
  const account = ctx.state.account!;
  const [graphs, callerTeamIds] = await Promise.all([
    loadConversationGraphs(ctx.deps.knex, conversations, { account: { id: account.id, name: account.name } }),
    // Only a conversation with a team shows the caller's membership (is_member): most pages need no lookup.
    conversations.some((conversation) => conversation.team_id) ? TeamMember.teamIdsOf(account.id, ctx.state.membership?.user_id ?? 0) : new Set<number>(),
  ]);
  return graphs.map((graph) => presentConversation(graph, callerTeamIds));
}

async function present(ctx: AppContext, conversation: Conversation) {
  const [presented] = await presentConversations(ctx, [conversation]);
  return presented;
}

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
      ctx.body = { meta: (await finder(ctx, query)).counts };
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
      const unread: Pick<Conversation, "inbox_id" | "labels" | "assignee_id">[] = await Conversation.ofAccount(ctx.state.account!.id)
        .whereIn("inbox_id", await accessibleInboxIds(ctx))
        .where("status", "open")
        .whereRaw(
          `EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id AND m.message_type = 0
             AND (conversations.agent_last_seen_at IS NULL OR m.created_at > conversations.agent_last_seen_at))`,
        )
        .select("inbox_id", "labels", "assignee_id");
      const tally = (keys: (string | number)[], into: Record<string, number>) => {
        for (const key of keys) into[key] = (into[key] ?? 0) + 1;
      };
      const byInbox: Record<string, number> = {};
      const byLabel: Record<string, number> = {};
      for (const conversation of unread) {
        tally([conversation.inbox_id], byInbox);
        tally(conversation.labels, byLabel);
      }
      const userId = userIdOf(ctx);
      ctx.body = {
        by_inbox: byInbox,
        by_label: byLabel,
        by_status: {
          all: unread.length,
          mine: unread.filter((c) => c.assignee_id === userId).length,
          unassigned: unread.filter((c) => c.assignee_id === null).length,
        },
        total: unread.length,
      };
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
      const { counts, filtered } = await finder(ctx, query);
      const list = filtered().orderByRaw(sortClause(query.sort_by));
      // updated_within replaces the page: everything changed in the last N seconds.
      const page = await (query.updated_within !== undefined
        ? list.where("conversations.updated_at", ">", new Date(Date.now() - query.updated_within * 1000))
        : list.limit(PER_PAGE).offset((query.page - 1) * PER_PAGE));
      ctx.body = { data: { meta: counts, payload: await presentConversations(ctx, page) } };
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
      const accountId = ctx.state.account!.id;
      const where = await filterCondition(ctx.deps.knex, accountId, "conversation", body.payload);
      const inboxIds = await accessibleInboxIds(ctx);
      const matches = () =>
        Conversation.ofAccount(accountId)
          .whereIn("inbox_id", inboxIds)
          .whereRaw(where.sql, where.bindings as never);
      const [all, mine, unassigned] = await Promise.all([
        matches().resultSize(),
        matches().where("assignee_id", userIdOf(ctx)).resultSize(),
        matches().whereNull("assignee_id").resultSize(),
      ]);
      const page = Number(query.page ?? body.page ?? 1);
      const conversations = await matches()
        .orderBy([
          { column: "last_activity_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(PER_PAGE)
        .offset((page - 1) * PER_PAGE);
      ctx.body = { meta: { mine_count: mine, unassigned_count: unassigned, all_count: all }, payload: await presentConversations(ctx, conversations) };
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
      ctx.body = await present(ctx, conversation);
    },
  );

  router.route(
    { method: "get", path: one, summary: "Get a conversation", params: accountResourceParams, response: conversationResponse },
    async (ctx, { params }) => {
      ctx.body = await present(ctx, await findConversation(ctx, params.id));
    },
  );

  for (const method of ["patch", "put"] as const) {
    router.route(
      {
        method,
        path: one,
        summary: "Update a conversation (its priority)",
        params: accountResourceParams,
        body: conversationUpdate,
        response: conversationResponse,
      },
      async (ctx, { params, body }) => {
        let conversation = await findConversation(ctx, params.id);
        if (body.priority !== undefined) conversation = await setPriority(ctx.deps.knex, conversation, body.priority, actorOf(ctx));
        ctx.body = await present(ctx, conversation);
      },
    );
  }

  router.route(
    {
      method: "post",
      path: `${one}/toggle_status`,
      summary: "Set or toggle the status",
      params: accountResourceParams,
      body: toggleStatusBody,
      response: toggleStatusResponse,
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      const result = await toggleStatus(ctx.deps.knex, conversation, { status: body.status, snoozedUntil: body.snoozed_until }, actorOf(ctx));
      ctx.body = {
        meta: {},
        payload: {
          success: result.success,
          conversation_id: result.conversation.display_id,
          current_status: result.conversation.status,
          snoozed_until: iso(result.conversation.snoozed_until),
        },
      };
    },
  );

  router.route(
    { method: "post", path: `${one}/toggle_priority`, summary: "Set or clear the priority", params: accountResourceParams, body: togglePriorityBody },
    async (ctx, { params, body }) => {
      await setPriority(ctx.deps.knex, await findConversation(ctx, params.id), body.priority, actorOf(ctx));
      headOk(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/toggle_typing_status`,
      summary: "Typing indicator (accepted; no live channel to relay it to)",
      params: accountResourceParams,
      body: typingBody,
    },
    async (ctx, { params }) => {
      await findConversation(ctx, params.id);
      headOk(ctx);
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

  router.route(
    {
      method: "post",
      path: `${one}/mute`,
      summary: "Mute: resolve, and later contact messages no longer reopen it",
      params: accountResourceParams,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      await muteConversation(ctx.deps.knex, await findConversation(ctx, params.id), actorOf(ctx));
      headOk(ctx);
    },
  );

  router.route(
    { method: "post", path: `${one}/unmute`, summary: "Unmute: contact messages reopen it again", params: accountResourceParams, middleware: [usersOnly] },
    async (ctx, { params }) => {
      await unmuteConversation(ctx.deps.knex, await findConversation(ctx, params.id), actorOf(ctx));
      headOk(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/unread`,
      summary: "Mark the latest incoming message unread",
      params: accountResourceParams,
      status: 204,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      const conversation = await findConversation(ctx, params.id);
      await Conversation.markUnread(ctx.deps.knex, conversation.id);
      // The action renders no view, which Rails answers with 204.
      ctx.status = 204;
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/update_last_seen`,
      summary: "Mark the conversation read by the caller",
      params: accountResourceParams,
      response: conversationResponse,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      const conversation = await findConversation(ctx, params.id);
      const seen = await Conversation.markSeen(ctx.deps.knex, conversation.id, { byAssignee: conversation.assignee_id === userIdOf(ctx) });
      ctx.body = await present(ctx, seen);
    },
  );
}

/** MessageBuilder#message_sender: sender_type AgentBot with sender_id names the bot an outgoing message is from. */
export function botSenderId(body: { sender_type?: string; sender_id?: number }): number | undefined {
  return body.sender_type === "AgentBot" ? body.sender_id : undefined;
}
