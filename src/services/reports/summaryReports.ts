import type { Knex } from "knex";
import { reportingEvents } from "./history";
import { accountLabels, accountTeams } from "./dimensions";
import { businessCalendar } from "./businessHours";
import { type Range, rangeFrom, within } from "./periods";
import { type Sql, sql, sqlText } from "../../db/sql";
import { rows } from "./sql";

/** summary_reports/agent|inbox|team|label (V2::Reports::*SummaryBuilder). */
export const SUMMARY_DIMENSIONS = ["agent", "inbox", "team", "label"] as const;
export type SummaryDimension = (typeof SUMMARY_DIMENSIONS)[number];

export interface SummaryQuery {
  accountId: number;
  /** Without a range, agents, inboxes and teams match nothing (Chatwoot's `where(created_at: nil)`) and labels count all time. */
  range: Range | null;
  businessCalendar: Sql | null;
}

export interface SummaryRow {
  id: number;
  conversations_count: number;
  resolved_conversations_count: number;
  avg_resolution_time: number | null;
  avg_first_response_time: number | null;
  avg_reply_time: number | null;
}

export interface LabelSummaryRow {
  id: number;
  name: string;
  conversations_count: number;
  avg_resolution_time: number;
  avg_first_response_time: number;
  avg_reply_time: number;
  resolved_conversations_count: number;
}

interface Grouped {
  key: number | string;
  conversations_count?: number;
  resolved_count?: number;
  avg_resolution_time?: number | null;
  avg_first_response_time?: number | null;
  avg_reply_time?: number | null;
}

const EVENT_COLUMNS = sqlText(`count(*) FILTER (WHERE e.name = 'conversation_resolved') AS resolved_count,
  (avg(e.value) FILTER (WHERE e.name = 'conversation_resolved'))::float8 AS avg_resolution_time,
  (avg(e.value) FILTER (WHERE e.name = 'first_response'))::float8 AS avg_first_response_time,
  (avg(e.value) FILTER (WHERE e.name = 'reply_time'))::float8 AS avg_reply_time`);

/** BaseSummaryBuilder#load_reporting_events_data: the range's events grouped by one of their columns. */
function eventsBy(key: "user_id" | "inbox_id" | "team_id", query: SummaryQuery & { range: Range }): Sql {
  const events = reportingEvents({
    accountId: query.accountId,
    names: ["conversation_resolved", "first_response", "reply_time"],
    range: query.range,
    businessCalendar: query.businessCalendar,
  });
  return sql`SELECT e.${sqlText(key)} AS key, ${EVENT_COLUMNS} FROM ${events} AS e GROUP BY 1`;
}

/** Conversations created in the range, grouped by a column (the agent's is the assignee). */
function conversationsBy(key: "assignee_id" | "inbox_id" | "team_id", query: SummaryQuery & { range: Range }): Sql {
  return sql`SELECT c.${sqlText(key)} AS key, count(*) AS conversations_count FROM conversations c
    WHERE c.account_id = ${query.accountId} AND ${within("c.created_at", query.range)} GROUP BY 1`;
}

function indexed(grouped: Grouped[]): Map<string, Grouped> {
  return new Map(grouped.map((row) => [String(row.key), row]));
}

/** The subjects of a dimension, in the order Chatwoot lists them. */
async function subjectIds(knex: Knex, dimension: "agent" | "inbox" | "team", accountId: number): Promise<number[]> {
  switch (dimension) {
    case "agent":
      return (await knex("account_users").where("account_id", accountId).orderBy("id").select("user_id")).map((row) => row.user_id);
    case "inbox":
      return (await knex("inboxes").where("account_id", accountId).orderBy("id").select("id")).map((row) => row.id);
    case "team":
      return (await accountTeams(knex, accountId)).map((team) => team.id);
  }
}

const KEYS = {
  agent: { conversations: "assignee_id", events: "user_id" },
  inbox: { conversations: "inbox_id", events: "inbox_id" },
  team: { conversations: "team_id", events: "team_id" },
} as const;

/** One row per agent (membership), inbox or team of the account: counts default to 0, averages to null. */
export async function dimensionSummary(knex: Knex, dimension: "agent" | "inbox" | "team", query: SummaryQuery): Promise<SummaryRow[]> {
  const ids = await subjectIds(knex, dimension, query.accountId);
  const { range } = query;
  const [conversations, events] = range
    ? await Promise.all([
        rows<Grouped>(knex, conversationsBy(KEYS[dimension].conversations, { ...query, range })),
        rows<Grouped>(knex, eventsBy(KEYS[dimension].events, { ...query, range })),
      ])
    : [[], []];
  const byConversation = indexed(conversations);
  const byEvent = indexed(events);
  return ids.map((id) => {
    const event = byEvent.get(String(id));
    return {
      id,
      conversations_count: Number(byConversation.get(String(id))?.conversations_count ?? 0),
      resolved_conversations_count: Number(event?.resolved_count ?? 0),
      avg_resolution_time: event?.avg_resolution_time ?? null,
      avg_first_response_time: event?.avg_first_response_time ?? null,
      avg_reply_time: event?.avg_reply_time ?? null,
    };
  });
}

/**
 * LabelSummaryBuilder: per label, the conversations created in the range that carry it, the
 * averages of all their events, and the resolutions in the range of conversations that carry it;
 * missing values are 0.
 */
export async function labelSummary(knex: Knex, query: SummaryQuery): Promise<LabelSummaryRow[]> {
  const labels = await accountLabels(knex, query.accountId);
  if (!labels.length) return [];
  const created = within("c.created_at", query.range);
  const labelled = sql`SELECT c.id, c.created_at, label FROM conversations c CROSS JOIN LATERAL unnest(c.labels) AS label
    WHERE c.account_id = ${query.accountId}`;
  const allEvents = reportingEvents({
    accountId: query.accountId,
    names: ["conversation_resolved", "first_response", "reply_time"],
    range: null,
    businessCalendar: query.businessCalendar,
  });
  const resolutionsInRange = reportingEvents({ accountId: query.accountId, names: ["conversation_resolved"], range: query.range, businessCalendar: null });
  const [counts, averages, resolved] = await Promise.all([
    rows<Grouped>(knex, sql`SELECT l.label AS key, count(*) AS conversations_count FROM (${labelled} AND ${created}) AS l GROUP BY 1`),
    rows<Grouped>(
      knex,
      sql`SELECT l.label AS key, ${EVENT_COLUMNS} FROM (${labelled} AND ${created}) AS l JOIN ${allEvents} AS e ON e.conversation_id = l.id GROUP BY 1`,
    ),
    rows<Grouped>(
      knex,
      sql`SELECT label AS key, count(*) AS resolved_count FROM ${resolutionsInRange} AS e CROSS JOIN LATERAL unnest(e.labels) AS label GROUP BY 1`,
    ),
  ]);
  const [byCount, byAverage, byResolved] = [indexed(counts), indexed(averages), indexed(resolved)];
  return labels.map((label) => {
    const average = byAverage.get(label.title);
    return {
      id: label.id,
      name: label.title,
      conversations_count: Number(byCount.get(label.title)?.conversations_count ?? 0),
      avg_resolution_time: average?.avg_resolution_time ?? 0,
      avg_first_response_time: average?.avg_first_response_time ?? 0,
      avg_reply_time: average?.avg_reply_time ?? 0,
      resolved_conversations_count: Number(byResolved.get(label.title)?.resolved_count ?? 0),
    };
  });
}

/** The summary query of a request's range and business-hours switch. */
export async function summaryQueryFor(knex: Knex, accountId: number, query: { since?: Date; until?: Date; business_hours?: boolean }): Promise<SummaryQuery> {
  return { accountId, range: rangeFrom(query.since, query.until), businessCalendar: query.business_hours ? await businessCalendar(knex, accountId) : null };
}
