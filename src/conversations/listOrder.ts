/* Which page of a conversation list, in which order: ConversationFinder's page size and sort scopes. */
import { type Sql, sql, sqlText } from "../db/sql";

/** ConversationFinder's page size (CONVERSATION_RESULTS_PER_PAGE). */
export const PER_PAGE = 25;

/** ConversationFinder::SORT_OPTIONS, the last four its legacy names. */
export const SORT_OPTIONS = [
  "last_activity_at_asc",
  "last_activity_at_desc",
  "created_at_asc",
  "created_at_desc",
  "priority_asc",
  "priority_desc",
  "waiting_since_asc",
  "waiting_since_desc",
  "priority_desc_created_at_asc",
  "latest",
  "sort_on_created_at",
  "sort_on_priority",
  "sort_on_waiting_since",
] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];

/**
 * A page's LIMIT and OFFSET, written into the text for the first page: PostgreSQL costs a prepared
 * statement's plan with them as values as if a tenth of the rows were wanted, which never beats the
 * plan for 25, so it planned the list afresh on every request. Later pages keep their offset a
 * value, so a client walking through a thousand pages leaves one prepared statement, not a thousand.
 */
export function pageOf(page: number): Sql {
  const limit = sqlText(` limit ${PER_PAGE}`);
  return page === 1 ? limit : sql`${limit} offset ${(page - 1) * PER_PAGE}`;
}

/** Sorts the list's index serves within each status: by activity, either way. */
export const BY_ACTIVITY: readonly SortOption[] = ["last_activity_at_asc", "last_activity_at_desc", "latest"];

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
