import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { ContactInbox } from "../../../models/ContactInbox";
import { Conversation } from "../../../models/Conversation";
import { ConversationParticipant } from "../../../models/ConversationParticipant";
import { MESSAGE_TYPE, Message } from "../../../models/Message";
import { Team, TeamMember } from "../../../models/Team";
import { accessibleInboxIdsQuery } from "../../../policies/inboxes";
import type { ConversationListQuery, SortOption } from "./schema";

/** A user's id for "mine" counts; bots never reach the list endpoints. */
export const userIdOf = (ctx: AppContext) => ctx.state.membership?.user_id ?? 0;

/**
 * ConversationFinder: the caller's inboxes (narrowed by inbox_id), status (open unless given; "all"
 * for every status; not applied with q), team, labels (any of them), q, source_id and
 * conversation_type. The counts are taken before the assignee filter.
 */
export async function finder(ctx: AppContext, query: ConversationListQuery) {
  const accountId = ctx.state.account!.id;
  const scoped = accessibleInboxIdsQuery(ctx);
  if (query.inbox_id !== undefined) scoped.where("inboxes.id", query.inbox_id);
  // current_account.teams.find: a team that is not the account's is not found.
  if (query.team_id !== undefined && !(await Team.findInAccount(accountId, query.team_id))) throw NotFound();
  const userId = userIdOf(ctx);
  const mentions = query.conversation_type === "mention" ? await mentionPatterns(accountId, userId) : [];
  const base = () => {
    const q = Conversation.ofAccount(accountId).whereIn("inbox_id", scoped);
    if (query.status !== "all" && query.q === undefined) q.where("status", query.status);
    if (query.team_id !== undefined) q.where("team_id", query.team_id);
    if (query.labels?.length) q.whereRaw("labels && ?::text[]", [query.labels]);
    if (query.q !== undefined) {
      // Rails' ILIKE with the text as given: % and _ in it are wildcards there too.
      q.whereExists(
        Message.query()
          .whereColumn("messages.conversation_id", "conversations.id")
          .whereIn("messages.message_type", [MESSAGE_TYPE.incoming, MESSAGE_TYPE.outgoing])
          .where("messages.content", "ilike", `%${query.q}%`),
      );
    }
    if (query.source_id !== undefined) {
      q.whereIn("contact_inbox_id", ContactInbox.query().select("id").where({ account_id: accountId, source_id: query.source_id }));
    }
    switch (query.conversation_type) {
      case "mention":
        // Mentions are private notes naming the user, or a team of theirs (Messages::MentionService).
        q.whereExists(
          Message.query()
            .whereColumn("messages.conversation_id", "conversations.id")
            .where("messages.private", true)
            .whereRaw("messages.content LIKE ANY(?::text[])", [mentions]),
        );
        break;
      case "participating":
        q.whereIn("conversations.id", ConversationParticipant.query().select("conversation_id").where({ account_id: accountId, user_id: userId }));
        break;
      case "unattended":
        q.where((w) => w.whereNull("first_reply_created_at").orWhereNotNull("waiting_since"));
        break;
    }
    return q;
  };
  // All three counts in one scan of the filtered conversations.
  const raw = (sql: string, bindings: readonly number[] = []) => ctx.deps.knex.raw(sql, bindings);
  const tally = (await base()
    .toKnexQuery()
    .clearSelect()
    .clearOrder()
    .first(
      raw("count(*) AS all_count"),
      raw("count(*) FILTER (WHERE assignee_id = ?) AS mine_count", [userId]),
      raw("count(*) FILTER (WHERE assignee_id IS NULL) AS unassigned_count"),
    )) as { all_count: number; mine_count: number; unassigned_count: number };
  const [all, mine, unassigned] = [tally.all_count, tally.mine_count, tally.unassigned_count].map(Number) as [number, number, number];
  const counts = { mine_count: mine, assigned_count: all - unassigned, unassigned_count: unassigned, all_count: all };
  const filtered = () => {
    const q = base();
    if (query.assignee_type === "me") q.where("assignee_id", userId);
    if (query.assignee_type === "unassigned") q.whereNull("assignee_id");
    if (query.assignee_type === "assigned") q.whereNotNull("assignee_id");
    return q;
  };
  return { counts, filtered };
}

/** LIKE patterns of the mention links that name the user or one of their teams. */
async function mentionPatterns(accountId: number, userId: number): Promise<string[]> {
  const teams = await TeamMember.teamIdsOf(accountId, userId);
  return [`%mention://user/${userId}/%`, ...[...teams].map((teamId) => `%mention://team/${teamId}/%`)];
}

const PRIORITY_RANK = "CASE conversations.priority WHEN 'low' THEN 0 WHEN 'medium' THEN 1 WHEN 'high' THEN 2 WHEN 'urgent' THEN 3 END";

/** ConversationFinder's sort scopes, each ending on the id so pages never overlap. */
export function sortClause(sort: SortOption): string {
  switch (sort) {
    case "last_activity_at_asc":
      return "conversations.last_activity_at ASC, conversations.id ASC";
    case "last_activity_at_desc":
    case "latest":
      return "conversations.last_activity_at DESC, conversations.id DESC";
    case "created_at_asc":
    case "sort_on_created_at":
      return "conversations.created_at ASC, conversations.id ASC";
    case "created_at_desc":
      return "conversations.created_at DESC, conversations.id DESC";
    case "priority_asc":
      return `${PRIORITY_RANK} ASC NULLS LAST, conversations.last_activity_at DESC, conversations.id DESC`;
    case "priority_desc":
    case "sort_on_priority":
      return `${PRIORITY_RANK} DESC NULLS LAST, conversations.last_activity_at DESC, conversations.id DESC`;
    case "waiting_since_asc":
    case "sort_on_waiting_since":
      return "conversations.waiting_since ASC NULLS LAST, conversations.created_at ASC, conversations.id ASC";
    case "waiting_since_desc":
      return "conversations.waiting_since DESC NULLS LAST, conversations.created_at ASC, conversations.id ASC";
    case "priority_desc_created_at_asc":
      return `${PRIORITY_RANK} DESC NULLS LAST, conversations.created_at ASC, conversations.id ASC`;
  }
}
