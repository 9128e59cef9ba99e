import type { Knex } from "knex";
import type { Range } from "./periods";

export interface LiveFilter {
  teamIds: number[];
  userIds: number[];
  inboxIds: number[];
  /** Conversations created in it; all of them without one. */
  range: Range | null;
}

const UNATTENDED = "(first_reply_created_at IS NULL OR waiting_since IS NOT NULL)";

function conversations(knex: Knex, accountId: number, filter: LiveFilter) {
  const query = knex("conversations").where("account_id", accountId);
  if (filter.teamIds.length) query.whereIn("team_id", filter.teamIds);
  if (filter.userIds.length) query.whereIn("assignee_id", filter.userIds);
  if (filter.inboxIds.length) query.whereIn("inbox_id", filter.inboxIds);
  if (filter.range) query.where("created_at", ">=", filter.range.since).where("created_at", "<=", filter.range.until);
  return query;
}

/** live_reports/conversation_metrics: conversations by state right now. */
export async function liveConversationMetrics(knex: Knex, accountId: number, filter: LiveFilter) {
  const row = await conversations(knex, accountId, filter).first(
    knex.raw(`count(*) FILTER (WHERE status = 'open') AS open,
      count(*) FILTER (WHERE status = 'open' AND ${UNATTENDED}) AS unattended,
      count(*) FILTER (WHERE status = 'open' AND assignee_id IS NULL) AS unassigned,
      count(*) FILTER (WHERE status = 'pending') AS pending,
      count(*) FILTER (WHERE status = 'resolved') AS resolved`),
  );
  return {
    open: Number(row.open),
    unattended: Number(row.unattended),
    unassigned: Number(row.unassigned),
    pending: Number(row.pending),
    resolved: Number(row.resolved),
  };
}

/** live_reports/grouped_conversation_metrics: open conversations per agent or team (null: none), groups without any left out. */
export async function groupedConversationMetrics(knex: Knex, accountId: number, groupBy: "assignee_id" | "team_id", filter: LiveFilter) {
  const rows: { key: string | null; open: string; unattended: string; unassigned: string }[] = await conversations(knex, accountId, filter)
    .where("status", "open")
    .groupBy(groupBy)
    .orderByRaw(`${groupBy} NULLS FIRST`)
    .select(
      knex.raw(
        `${groupBy} AS key, count(*) AS open, count(*) FILTER (WHERE ${UNATTENDED}) AS unattended, count(*) FILTER (WHERE assignee_id IS NULL) AS unassigned`,
      ),
    );
  return rows.map((row) => ({
    open: Number(row.open),
    unattended: Number(row.unattended),
    unassigned: Number(row.unassigned),
    [groupBy]: row.key === null ? null : Number(row.key),
  }));
}
