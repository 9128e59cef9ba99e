import type { Knex } from "knex";
import { type Sql, sql, sqlText } from "../../db/sql";
import { accountLabels, accountTeams } from "./dimensions";
import { reportingEvents } from "./history";
import { localTime, type Range, type ReportZone, within } from "./periods";
import { rows } from "./sql";

/** Conversations created per weekday (Sunday first) and hour, in the zone: 7 rows of 24 counts. */
export async function conversationTraffic(knex: Knex, accountId: number, range: Range | null, zone: ReportZone): Promise<number[][]> {
  const local = localTime(sqlText("c.created_at"), zone);
  const counts = await rows<{ dow: number; hour: number; count: string }>(
    knex,
    sql`SELECT extract(dow FROM ${local})::int AS dow, extract(hour FROM ${local})::int AS hour, count(*) AS count
      FROM conversations c WHERE c.account_id = ${accountId} AND ${within("c.created_at", range)} GROUP BY 1, 2`,
  );
  const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const row of counts) grid[row.dow]![row.hour] = Number(row.count);
  return grid;
}

const STATUSES = ["open", "resolved", "pending", "snoozed"] as const;
export type ChannelSummary = Record<string, Record<(typeof STATUSES)[number] | "total", number>>;

/** summary_reports/channel: conversations created in the range per channel type, by status. */
export async function channelSummary(knex: Knex, accountId: number, range: Range | null): Promise<ChannelSummary> {
  const counts = await rows<{ channel_type: string; status: string; count: string }>(
    knex,
    sql`SELECT i.channel_type, c.status, count(*) AS count FROM conversations c JOIN inboxes i ON i.id = c.inbox_id
      WHERE c.account_id = ${accountId} AND ${within("c.created_at", range)} GROUP BY 1, 2`,
  );
  const summary: ChannelSummary = {};
  for (const row of counts) {
    const entry = (summary[row.channel_type] ??= { open: 0, resolved: 0, pending: 0, snoozed: 0, total: 0 });
    if ((STATUSES as readonly string[]).includes(row.status)) entry[row.status as (typeof STATUSES)[number]] += Number(row.count);
    entry.total += Number(row.count);
  }
  return summary;
}

const BUCKETS = [
  ["0-1h", 3600],
  ["1-4h", 4 * 3600],
  ["4-8h", 8 * 3600],
  ["8-24h", 24 * 3600],
  ["24h+", Number.POSITIVE_INFINITY],
] as const;

/** First responses in the range per channel type, counted in time buckets (first_response_time_distribution). */
export async function firstResponseDistribution(knex: Knex, accountId: number, range: Range | null): Promise<Record<string, Record<string, number>>> {
  const events = reportingEvents({ accountId, names: ["first_response"], range, businessCalendar: null });
  const values = await rows<{ channel_type: string; value: number }>(
    knex,
    sql`SELECT i.channel_type, e.value::float8 AS value FROM ${events} AS e JOIN inboxes i ON i.id = e.inbox_id`,
  );
  const distribution: Record<string, Record<string, number>> = {};
  for (const { channel_type: channel, value } of values) {
    const entry = (distribution[channel] ??= Object.fromEntries(BUCKETS.map(([name]) => [name, 0])));
    entry[BUCKETS.find(([, limit]) => Number(value) < limit)![0]]! += 1;
  }
  return distribution;
}

export const OUTGOING_GROUPS = ["agent", "team", "inbox", "label"] as const;
export type OutgoingGroup = (typeof OUTGOING_GROUPS)[number];

/** Outgoing messages (agents' replies and notes) in the range per agent, team, inbox or label; every subject listed, zeros included. */
export async function outgoingMessagesCount(knex: Knex, accountId: number, groupBy: OutgoingGroup, range: Range | null) {
  const from = sqlText("FROM messages m JOIN conversations c ON c.id = m.conversation_id");
  const where = sql`WHERE m.account_id = ${accountId} AND m.message_type = 1 AND ${within("m.created_at", range)}`;
  const keyed: Record<OutgoingGroup, Sql> = {
    agent: sql`SELECT m.sender_id::text AS key, count(*) AS count ${from} ${where} AND m.sender_type = 'User' GROUP BY 1`,
    team: sql`SELECT c.team_id::text AS key, count(*) AS count ${from} ${where} AND c.team_id IS NOT NULL GROUP BY 1`,
    inbox: sql`SELECT m.inbox_id::text AS key, count(*) AS count ${from} ${where} GROUP BY 1`,
    label: sql`SELECT label AS key, count(*) AS count ${from} CROSS JOIN LATERAL unnest(c.labels) AS label ${where} GROUP BY 1`,
  };
  const counts = new Map((await rows<{ key: string; count: string }>(knex, keyed[groupBy])).map((row) => [row.key, Number(row.count)]));
  const subjects = await subjectsOf(knex, accountId, groupBy);
  return subjects.map((s) => ({ id: s.id, name: s.name, outgoing_messages_count: counts.get(s.key) ?? 0 }));
}

async function subjectsOf(knex: Knex, accountId: number, groupBy: OutgoingGroup): Promise<{ id: number; name: string; key: string }[]> {
  switch (groupBy) {
    case "agent":
      return (
        await knex("account_users as au").join("users as u", "u.id", "au.user_id").where("au.account_id", accountId).orderBy("au.id").select("u.id", "u.name")
      ).map((u: { id: number; name: string }) => ({ id: Number(u.id), name: u.name, key: String(u.id) }));
    case "inbox":
      return (await knex("inboxes").where("account_id", accountId).orderBy("id").select("id", "name")).map((i: { id: number; name: string }) => ({
        id: Number(i.id),
        name: i.name,
        key: String(i.id),
      }));
    case "team":
      return (await accountTeams(knex, accountId)).map((t) => ({ id: Number(t.id), name: t.name, key: String(t.id) }));
    case "label":
      return (await accountLabels(knex, accountId)).map((l) => ({ id: Number(l.id), name: l.title, key: l.title }));
  }
}

/** Conversations created in the range per inbox and label: a row of label counts per inbox. */
export async function inboxLabelMatrix(knex: Knex, accountId: number, range: Range | null, filter: { inboxIds?: number[]; labelIds?: number[] }) {
  let inboxes: { id: number; name: string }[] = (await knex("inboxes").where("account_id", accountId).orderBy("id").select("id", "name")).map(
    (i: { id: number; name: string }) => ({ id: Number(i.id), name: i.name }),
  );
  let labels = await accountLabels(knex, accountId);
  if (filter.inboxIds?.length) inboxes = inboxes.filter((i) => filter.inboxIds!.includes(i.id));
  if (filter.labelIds?.length) labels = labels.filter((l) => filter.labelIds!.includes(l.id));
  const counts = await rows<{ inbox_id: string; label: string; count: string }>(
    knex,
    sql`SELECT c.inbox_id, label, count(*) AS count FROM conversations c CROSS JOIN LATERAL unnest(c.labels) AS label
      WHERE c.account_id = ${accountId} AND ${within("c.created_at", range)} GROUP BY 1, 2`,
  );
  const byCell = new Map(counts.map((row) => [`${row.inbox_id}:${row.label}`, Number(row.count)]));
  return {
    inboxes,
    labels: labels.map((l) => ({ id: Number(l.id), title: l.title })),
    matrix: inboxes.map((inbox) => labels.map((label) => byCell.get(`${inbox.id}:${label.title}`) ?? 0)),
  };
}
