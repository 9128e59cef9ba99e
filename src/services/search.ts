import type { Knex } from "knex";
import type { Sql } from "../db/sql";
import { AccountUser } from "../models/AccountUser";
import { Contact } from "../models/Contact";
import { Conversation } from "../models/Conversation";
import { Inbox } from "../models/Inbox";
import { Message } from "../models/Message";
import { User } from "../models/User";
import { loadSenders } from "../conversations/messageSenders";
import { searchAgent, searchArticle, searchContact, searchConversation, searchMessage } from "../presenters/search";
import { byTextRank, matchingText } from "../helpCenter/articles";
import { prefixTsQuery } from "../helpCenter/slugs";
import { Article } from "../models/Article";

/** SearchService's page size. */
export const SEARCH_PER_PAGE = 15;

export interface SearchScope {
  db: Knex;
  accountId: number;
  /** The inboxes the caller may see, as a subquery; undefined when they see all of the account's. */
  inboxIds: Sql | undefined;
  /** The account has search_with_gin: messages match the words as a phrase (full-text) instead of ILIKE. */
  fullText: boolean;
  q: string;
  page: number;
}

const offsetOf = (scope: SearchScope) => (scope.page - 1) * SEARCH_PER_PAGE;

function inVisibleInboxes(query: { whereRaw(text: string, values: Knex.RawBinding[]): unknown }, column: string, scope: SearchScope): void {
  if (scope.inboxIds) query.whereRaw(`${column} in (${scope.inboxIds.text})`, scope.inboxIds.values as Knex.RawBinding[]);
}

/** The pattern as SearchService builds it: the text as given, so % and _ match as in Rails' ILIKE. */
const pattern = (scope: SearchScope) => `%${scope.q}%`;

async function inboxesById(db: Knex, accountId: number, ids: number[]): Promise<Map<number, Inbox>> {
  const inboxes = ids.length
    ? await Inbox.query(db)
        .where("account_id", accountId)
        .whereIn("id", [...new Set(ids)])
    : [];
  return new Map(inboxes.map((inbox) => [inbox.id, inbox]));
}

/** Messages of the visible inboxes in the last 3 months whose content matches, newest first. */
export async function searchMessages(scope: SearchScope) {
  const query = Message.query(scope.db).where("messages.account_id", scope.accountId).whereRaw("messages.created_at >= now() - interval '3 months'");
  inVisibleInboxes(query, "messages.inbox_id", scope);
  if (scope.fullText) {
    // phraseto_tsquery takes any text (to_tsquery would fail on operators in it); blank matches all, as Chatwoot's.
    if (scope.q) query.whereRaw("to_tsvector('english', coalesce(messages.content, '')) @@ phraseto_tsquery('english', ?)", [scope.q]);
  } else query.where("messages.content", "ilike", pattern(scope));
  const messages = await query
    .orderBy([
      { column: "messages.created_at", order: "desc" },
      { column: "messages.id", order: "desc" },
    ])
    .limit(SEARCH_PER_PAGE)
    .offset(offsetOf(scope));
  return presentMessages(scope.db, scope.accountId, messages);
}

async function presentMessages(db: Knex, accountId: number, messages: Message[]) {
  if (!messages.length) return [];
  const senders = await loadSenders(db, accountId, messages);
  const inboxes = await inboxesById(
    db,
    accountId,
    messages.map((m) => m.inbox_id),
  );
  const conversations: { id: number; display_id: number }[] = await db("conversations")
    .whereIn("id", [...new Set(messages.map((m) => m.conversation_id))])
    .select("id", "display_id");
  const displayIds = new Map(conversations.map((c) => [Number(c.id), c.display_id]));
  return messages.map((message) =>
    searchMessage(message, {
      displayId: displayIds.get(Number(message.conversation_id)),
      sender: senders.get(message.id),
      inbox: inboxes.get(message.inbox_id),
    }),
  );
}

/** Contacts with an email, phone number or identifier whose name, email, phone number or identifier match, most recently active first. */
export async function searchContacts(scope: SearchScope) {
  const like = pattern(scope);
  const contacts = await Contact.query(scope.db)
    .where("account_id", scope.accountId)
    .where((w) => w.where("email", "<>", "").orWhere("phone_number", "<>", "").orWhere("identifier", "<>", ""))
    .where((w) => w.where("name", "ilike", like).orWhere("email", "ilike", like).orWhere("phone_number", "ilike", like).orWhere("identifier", "ilike", like))
    .orderByRaw("last_activity_at desc nulls last, id desc")
    .limit(SEARCH_PER_PAGE)
    .offset(offsetOf(scope));
  return contacts.map(searchContact);
}

/** Conversations of the visible inboxes whose display id or contact's name, email, phone number or identifier match, newest first. */
export async function searchConversations(scope: SearchScope) {
  const like = pattern(scope);
  const query = Conversation.query(scope.db)
    .select("conversations.*")
    .join("contacts", "contacts.id", "conversations.contact_id")
    .where("conversations.account_id", scope.accountId)
    .where((w) =>
      w
        .whereRaw("cast(conversations.display_id as text) ilike ?", [like])
        .orWhere("contacts.name", "ilike", like)
        .orWhere("contacts.email", "ilike", like)
        .orWhere("contacts.phone_number", "ilike", like)
        .orWhere("contacts.identifier", "ilike", like),
    );
  inVisibleInboxes(query, "conversations.inbox_id", scope);
  const conversations = await query
    .orderBy([
      { column: "conversations.created_at", order: "desc" },
      { column: "conversations.id", order: "desc" },
    ])
    .limit(SEARCH_PER_PAGE)
    .offset(offsetOf(scope));
  return presentConversations(scope.db, scope.accountId, conversations);
}

async function presentConversations(db: Knex, accountId: number, conversations: Conversation[]) {
  if (!conversations.length) return [];
  const ids = conversations.map((c) => c.id);
  // Each conversation's first message (conversation.messages.first: the lowest id).
  const firsts = await Message.query(db).whereIn("id", db("messages").whereIn("conversation_id", ids).groupBy("conversation_id").min("id"));
  const presentedFirsts = await presentMessages(db, accountId, firsts);
  const firstByConversation = new Map(firsts.map((m, i) => [Number(m.conversation_id), presentedFirsts[i]]));
  const contacts = await Contact.query(db).whereIn(
    "id",
    conversations.flatMap((c) => (c.contact_id ? [c.contact_id] : [])),
  );
  const contactById = new Map(contacts.map((c) => [c.id, c]));
  const inboxes = await inboxesById(
    db,
    accountId,
    conversations.map((c) => c.inbox_id),
  );
  const assigneeIds = [...new Set(conversations.flatMap((c) => (c.assignee_id ? [c.assignee_id] : [])))];
  const users = assigneeIds.length ? await User.query(db).findByIds(assigneeIds) : [];
  const memberships = assigneeIds.length ? await AccountUser.query(db).where("account_id", accountId).whereIn("user_id", assigneeIds) : [];
  const membershipOf = new Map(memberships.map((m) => [Number(m.user_id), m]));
  const agents = new Map(users.map((user) => [user.id, searchAgent(user, membershipOf.get(user.id))]));
  return conversations.map((conversation) =>
    searchConversation(conversation, {
      firstMessage: firstByConversation.get(conversation.id),
      contact: conversation.contact_id ? contactById.get(conversation.contact_id) : undefined,
      inbox: inboxes.get(conversation.inbox_id),
      agent: conversation.assignee_id ? agents.get(conversation.assignee_id) : undefined,
    }),
  );
}

/**
 * SearchService#filter_articles: the account's published articles whose title, description or
 * content has words starting with each word of `q` (pg_search's tsearch prefix), best match first,
 * then the most recently updated. Any member may read every article of the account, so no inbox
 * narrows them. A `q` without words matches nothing, as pg_search's blank query does.
 */
export async function searchArticles(scope: SearchScope) {
  if (!prefixTsQuery(scope.q)) return [];
  const query = Article.query(scope.db).where({ "articles.account_id": scope.accountId, "articles.status": "published" });
  matchingText(query, scope.q);
  byTextRank(query, scope.q);
  const articles = await query
    .orderBy([
      { column: "articles.updated_at", order: "desc" },
      { column: "articles.id", order: "desc" },
    ])
    .limit(SEARCH_PER_PAGE)
    .offset(offsetOf(scope));
  if (!articles.length) return [];
  const portals: { id: string; slug: string }[] = await scope
    .db("portals")
    .whereIn("id", [...new Set(articles.map((a) => a.portal_id))])
    .select("id", "slug");
  const categoryIds = [...new Set(articles.flatMap((a) => (a.category_id ? [a.category_id] : [])))];
  const categories: { id: string; name: string }[] = categoryIds.length ? await scope.db("categories").whereIn("id", categoryIds).select("id", "name") : [];
  const portalSlug = new Map(portals.map((p) => [Number(p.id), p.slug]));
  const categoryName = new Map(categories.map((c) => [Number(c.id), c.name]));
  return articles.map((article) =>
    searchArticle(article, {
      portalSlug: portalSlug.get(article.portal_id)!,
      categoryName: article.category_id ? categoryName.get(article.category_id) : undefined,
    }),
  );
}
