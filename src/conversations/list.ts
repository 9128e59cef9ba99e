/*
 * The conversation lists (Chatwoot's ConversationFinder, the filter endpoint, unread counts and a
 * contact's conversations): which conversations a viewer sees and the counts beside them. Routes
 * validate the query and present the conversations.
 */
import type { Knex } from "knex";
import { joinSql, Sql, sql, sqlText } from "../db/sql";
import { Batch } from "../db/batch";
import { NotFound } from "../errors";
import { CONVERSATION_STATUSES, Conversation, type ConversationStatus, type ConversationsWhere } from "../models/Conversation";
import { MESSAGE_TYPE } from "../models/Message";
import { Team, TeamMember } from "../models/Team";
import type { ConversationGraph } from "../presenters/conversation";
import type { AccountRef } from "../presenters/message";
import { type ConversationsToLoad, loadConversationGraphs } from "./graph";
import { type FilterCondition, filterCondition } from "../services/filters/sql";
import { BY_ACTIVITY, pageOf, PER_PAGE, sortClause, type SortOption } from "./listOrder";

/** Chatwoot's contact conversations: the 20 most recently active. */
const CONTACT_LIMIT = 20;

export const ASSIGNEE_TYPES = ["me", "unassigned", "assigned", "all"] as const;
export const CONVERSATION_TYPES = ["mention", "participating", "unattended"] as const;

/** Who is looking: "mine" is the user's, and only conversations in the inboxes they may see are listed. */
export interface Viewer {
  account: AccountRef;
  userId: number;
  /** The ids of the inboxes they may see, as a subquery; undefined when they see every inbox of the account. */
  inboxIds: Sql | undefined;
}

/** The list's filters, as its query string gives them. */
export interface ListFilters {
  status: ConversationStatus | "all";
  assignee_type: (typeof ASSIGNEE_TYPES)[number];
  inbox_id?: number;
  team_id?: number;
  labels?: string[];
  q?: string;
  source_id?: string;
  conversation_type?: (typeof CONVERSATION_TYPES)[number];
}

export interface ListPage extends ListFilters {
  sort_by: SortOption;
  page: number;
  /** Seconds: replaces the page with every conversation updated that recently. */
  updated_within?: number;
}

export interface ListCounts {
  mine_count: number;
  assigned_count: number;
  unassigned_count: number;
  all_count: number;
}

/**
 * The viewer's conversations: the account's, in the inboxes they may see. Written as SQL text, as
 * every list below adds to it: on the hot list, building its two statements with knex and Objection
 * cost more than PostgreSQL's answer.
 */
function inViewersInboxes(viewer: Viewer): ConversationsWhere {
  const ofAccount = sql`conversations.account_id = ${viewer.account.id}`;
  return viewer.inboxIds ? sql`${ofAccount} and conversations.inbox_id in (${viewer.inboxIds})` : ofAccount;
}

/** The conversations of `scope` that also pass `condition` (knex raw's `?` placeholders, taking `values`). */
function and(scope: ConversationsWhere, condition: string, ...values: unknown[]): ConversationsWhere {
  return new Sql(`${scope.text} and ${condition}`, [...scope.values, ...values]);
}

/**
 * ConversationFinder: the viewer's inboxes (narrowed by inbox_id), status (open unless given; "all"
 * for every status; not applied with q), team, labels (any of them), q, source_id and
 * conversation_type; the assignee filter is left to the caller, as the counts are taken before it.
 */
async function finderScope(db: Knex, viewer: Viewer, filters: ListFilters): Promise<ConversationsWhere> {
  const accountId = viewer.account.id;
  // current_account.teams.find: a team that is not the account's is not found.
  if (filters.team_id !== undefined && !(await Team.findInAccount(accountId, filters.team_id, db))) throw NotFound();
  let scope = inViewersInboxes(viewer);
  if (filters.inbox_id !== undefined) scope = and(scope, "conversations.inbox_id = ?", filters.inbox_id);
  if (filters.status !== "all" && filters.q === undefined) scope = and(scope, "conversations.status = ?", filters.status);
  if (filters.team_id !== undefined) scope = and(scope, "conversations.team_id = ?", filters.team_id);
  if (filters.labels?.length) scope = and(scope, "conversations.labels && ?::text[]", filters.labels);
  if (filters.q !== undefined) {
    // Rails' ILIKE with the text as given: % and _ in it are wildcards there too.
    scope = and(
      scope,
      `exists (select 1 from messages where messages.conversation_id = conversations.id` +
        ` and messages.message_type in (${MESSAGE_TYPE.incoming}, ${MESSAGE_TYPE.outgoing}) and messages.content ilike ?)`,
      `%${filters.q}%`,
    );
  }
  if (filters.source_id !== undefined) {
    scope = and(
      scope,
      "conversations.contact_inbox_id in (select id from contact_inboxes where account_id = ? and source_id = ?)",
      accountId,
      filters.source_id,
    );
  }
  switch (filters.conversation_type) {
    case "mention":
      // Mentions are private notes naming the user, or a team of theirs (Messages::MentionService).
      scope = and(
        scope,
        "exists (select 1 from messages where messages.conversation_id = conversations.id and messages.private = true and messages.content like any(?::text[]))",
        await mentionPatterns(db, accountId, viewer.userId),
      );
      break;
    case "participating":
      scope = and(
        scope,
        "conversations.id in (select conversation_id from conversation_participants where account_id = ? and user_id = ?)",
        accountId,
        viewer.userId,
      );
      break;
    case "unattended":
      scope = and(scope, "(conversations.first_reply_created_at is null or conversations.waiting_since is not null)");
      break;
  }
  return scope;
}

/** LIKE patterns of the mention links that name the user or one of their teams. */
async function mentionPatterns(db: Knex, accountId: number, userId: number): Promise<string[]> {
  const teams = await TeamMember.teamIdsOf(accountId, userId, db);
  return [`%mention://user/${userId}/%`, ...[...teams].map((teamId) => `%mention://team/${teamId}/%`)];
}

/** All, the viewer's and unassigned conversations of a scope, in one scan, queued on a batch. */
async function assigneeCounts(batch: Batch, scope: ConversationsWhere, userId: number) {
  const [tally] = await batch.rows<Record<"all_count" | "mine_count" | "unassigned_count", string | number>>(
    sql`select count(*) as all_count, count(*) filter (where assignee_id = ${userId}) as mine_count, count(*) filter (where assignee_id is null) as unassigned_count
      from conversations where ${scope}`,
  );
  return { all: Number(tally!.all_count), mine: Number(tally!.mine_count), unassigned: Number(tally!.unassigned_count) };
}

async function listCounts(batch: Batch, viewer: Viewer, scope: ConversationsWhere): Promise<ListCounts> {
  const { all, mine, unassigned } = await assigneeCounts(batch, scope, viewer.userId);
  return { mine_count: mine, assigned_count: all - unassigned, unassigned_count: unassigned, all_count: all };
}

/** The list endpoint's meta: its counts by assignee under the filters. */
export async function conversationCounts(db: Knex, viewer: Viewer, filters: ListFilters): Promise<ListCounts> {
  const batch = new Batch(db);
  const counts = listCounts(batch, viewer, await finderScope(db, viewer, filters));
  await batch.run();
  return counts;
}

/** A page of the list (25 by sort_by, or everything updated within the last updated_within seconds) and its counts. */
export async function listConversations(db: Knex, viewer: Viewer, filters: ListPage): Promise<{ counts: ListCounts; conversations: Conversation[] }> {
  const scope = await finderScope(db, viewer, filters);
  let list = scope;
  if (filters.assignee_type === "me") list = and(list, "conversations.assignee_id = ?", viewer.userId);
  if (filters.assignee_type === "unassigned") list = and(list, "conversations.assignee_id is null");
  if (filters.assignee_type === "assigned") list = and(list, "conversations.assignee_id is not null");
  if (filters.updated_within !== undefined) list = and(list, "conversations.updated_at > ?", new Date(Date.now() - filters.updated_within * 1000));
  // The counts and the page in one round trip.
  const batch = new Batch(db);
  const counts = listCounts(batch, viewer, scope);
  const conversations = batch.rows(pageSql(list, filters)).then((rows) => rows.map((row) => Conversation.fromDatabaseJson(row)));
  await batch.run();
  return { counts: await counts, conversations: await conversations };
}

/**
 * The list's page. Without a status to narrow it, a page by activity is each status's first rows
 * along the (account_id, status, last_activity_at, id) index, merged: there is no index by activity
 * alone (it would cost every message's write one more index entry), and PostgreSQL sorted every
 * conversation of the account instead (bench/HISTORY.md, figures once in comments). The statuses are
 * all there are: the database holds the column to them.
 */
function pageSql(list: ConversationsWhere, filters: ListPage): Sql {
  const order = sqlText(` order by ${sortClause(filters.sort_by)}`);
  if (filters.updated_within !== undefined) return sql`select conversations.* from conversations where ${list}${order}`;
  const everyStatus = filters.status === "all" || filters.q !== undefined;
  if (!everyStatus || !BY_ACTIVITY.includes(filters.sort_by))
    return sql`select conversations.* from conversations where ${list}${order}${pageOf(filters.page)}`;
  // Each status's rows up to the page's end; on the first page that is the page itself (pageOf's text).
  const upToPage = filters.page === 1 ? pageOf(1) : sql` limit ${filters.page * PER_PAGE}`;
  const ofEachStatus = CONVERSATION_STATUSES.map(
    (status) => sql`(select conversations.* from conversations where ${list} and conversations.status = ${status}${order}${upToPage})`,
  );
  return sql`select * from (${joinSql(ofEachStatus, " union all ")}) as conversations${order}${pageOf(filters.page)}`;
}

/** Chatwoot's conversations/filter: conversations of any status matching the conditions, 25 a page by latest activity, with counts. */
export async function filterConversations(db: Knex, viewer: Viewer, conditions: FilterCondition[], page: number) {
  const where = await filterCondition(db, viewer.account.id, "conversation", conditions);
  // The conditions name their columns with knex's ?? identifiers, which knex writes in.
  const condition = db.raw(where.sql, where.bindings as Knex.RawBinding[]).toSQL();
  const matches = and(inViewersInboxes(viewer), condition.sql, ...condition.bindings);
  const batch = new Batch(db);
  const counts = assigneeCounts(batch, matches, viewer.userId);
  const conversations = Conversation.selectWhere(batch, sql`${matches} order by conversations.last_activity_at desc, conversations.id desc${pageOf(page)}`);
  await batch.run();
  const { all, mine, unassigned } = await counts;
  return { counts: { mine_count: mine, unassigned_count: unassigned, all_count: all }, conversations: await conversations };
}

/** The contact's most recently active conversations in the viewer's inboxes. */
export async function contactConversations(db: Knex, viewer: Viewer, contactId: number): Promise<Conversation[]> {
  const scope = and(inViewersInboxes(viewer), "conversations.contact_id = ?", contactId);
  const batch = new Batch(db);
  const conversations = Conversation.selectWhere(
    batch,
    sql`${scope} order by conversations.last_activity_at desc, conversations.id desc limit ${CONTACT_LIMIT}`,
  );
  await batch.run();
  return conversations;
}

/**
 * Open conversations with an incoming message the agents have not seen, tallied by inbox, label and
 * assignee. PostgreSQL tallies them: a large account has tens of thousands, and reading them all to
 * count them here held the event loop (and every other request) in a large account.
 */
export async function unreadCounts(db: Knex, viewer: Viewer) {
  const scope = and(inViewersInboxes(viewer), `conversations.status = 'open' and ${Conversation.hasUnread("conversations")}`);
  const tallies = await Batch.rowsOf<{ kind: "inbox" | "label" | "status"; key: string; n: number }>(
    db,
    sql`with unread as materialized (select inbox_id, labels, assignee_id from conversations where ${scope})
      select 'inbox' as kind, inbox_id::text as key, count(*)::int as n from unread group by inbox_id
      union all select 'label', label, count(*)::int from unread cross join lateral unnest(labels) as label group by label
      union all select 'status', 'all', count(*)::int from unread
      union all select 'status', 'mine', count(*)::int from unread where assignee_id = ${viewer.userId}
      union all select 'status', 'unassigned', count(*)::int from unread where assignee_id is null`,
  );
  const byInbox: Record<string, number> = {};
  const byLabel: Record<string, number> = {};
  const byStatus = { all: 0, mine: 0, unassigned: 0 };
  for (const { kind, key, n } of tallies) {
    if (kind === "inbox") byInbox[key] = n;
    else if (kind === "label") byLabel[key] = n;
    else byStatus[key as keyof typeof byStatus] = n;
  }
  return { by_inbox: byInbox, by_label: byLabel, by_status: byStatus, total: byStatus.all };
}

/**
 * The conversations' graphs and the viewer's teams for their is_member, at the same time when the
 * conversations are known. Only a conversation with a team shows the membership, so most pages need
 * no team lookup.
 */
export async function loadListed(
  db: Knex,
  toLoad: ConversationsToLoad,
  viewer: Pick<Viewer, "account" | "userId">,
): Promise<{ graphs: ConversationGraph[]; viewerTeamIds: Set<number> }> {
  const teamsFor = async (conversations: Conversation[]) =>
    conversations.some((conversation) => conversation.team_id) ? TeamMember.teamIdsOf(viewer.account.id, viewer.userId, db) : new Set<number>();
  if (!Array.isArray(toLoad)) {
    const graphs = await loadConversationGraphs(db, toLoad, { account: viewer.account });
    return { graphs, viewerTeamIds: await teamsFor(graphs.map((graph) => graph.conversation)) };
  }
  const [graphs, viewerTeamIds] = await Promise.all([loadConversationGraphs(db, toLoad, { account: viewer.account }), teamsFor(toLoad)]);
  return { graphs, viewerTeamIds };
}
