import type { AppContext } from "../../../http/context";
import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { requireMember } from "../../../policies";
import { accessibleInboxIdsSql } from "../../../policies/inboxes";
import { searchArticles, searchContacts, searchConversations, searchMessages, type SearchScope } from "../../../services/search";
import { searchAllResponse, searchArticlesResponse, searchContactsResponse, searchConversationsResponse, searchMessagesResponse, searchQuery } from "./schema";

/** SearchService's inputs: the caller's inboxes (Chatwoot's assigned_inboxes), the stripped query, the page. */
function scopeOf(ctx: AppContext, query: { q?: string; page?: number }): SearchScope {
  const account = ctx.state.account!;
  return {
    db: ctx.deps.knex,
    accountId: account.id,
    inboxIds: accessibleInboxIdsSql(ctx),
    fullText: (account.features ?? []).includes("search_with_gin"),
    q: (query.q ?? "").trim(),
    page: query.page ?? 1,
  };
}

export function registerSearchRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/search";

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path,
      summary: "Search conversations, contacts and messages the caller may see, 15 of each a page",
      params: accountParams,
      query: searchQuery,
      response: searchAllResponse,
    },
    async (ctx, { query }) => {
      const scope = scopeOf(ctx, query);
      const [conversations, contacts, messages] = [await searchConversations(scope), await searchContacts(scope), await searchMessages(scope)];
      // The combined view renders conversations without their additional_attributes.
      ctx.body = { payload: { conversations: conversations.map(({ additional_attributes: _omitted, ...rest }) => rest), contacts, messages } };
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: `${path}/conversations`,
      summary: "Conversations whose display id or contact matches, newest first, 15 a page",
      params: accountParams,
      query: searchQuery,
      response: searchConversationsResponse,
    },
    async (ctx, { query }) => {
      ctx.body = { payload: { conversations: await searchConversations(scopeOf(ctx, query)) } };
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: `${path}/contacts`,
      summary: "Contacts whose name, email, phone number or identifier matches, most recently active first, 15 a page",
      params: accountParams,
      query: searchQuery,
      response: searchContactsResponse,
    },
    async (ctx, { query }) => {
      ctx.body = { payload: { contacts: await searchContacts(scopeOf(ctx, query)) } };
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: `${path}/messages`,
      summary: "Messages of the last 3 months whose content matches, newest first, 15 a page",
      params: accountParams,
      query: searchQuery,
      response: searchMessagesResponse,
    },
    async (ctx, { query }) => {
      ctx.body = { payload: { messages: await searchMessages(scopeOf(ctx, query)) } };
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: `${path}/articles`,
      summary: "Published help center articles whose title, description or content has words starting with those of `q`, best match first, 15 a page",
      params: accountParams,
      query: searchQuery,
      response: searchArticlesResponse,
    },
    async (ctx, { query }) => {
      ctx.body = { payload: { articles: await searchArticles(scopeOf(ctx, query)) } };
    },
  );
}
