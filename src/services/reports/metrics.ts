import type { Knex } from "knex";
import { type ReportingEventName, reportingEvents } from "./history";
import { type GroupBy, type Range, type ReportZone, assertSeriesFits, periodSeries, periodStart, within } from "./periods";
import { type ReportScope, conversationsIn, eventsIn, messagesIn } from "./scope";
import { type Sql, sql, sqlText } from "../../db/sql";
import { rows } from "./sql";

/** V2::Reports::Conversations::BaseReportBuilder's metrics: counts of rows, and averages of event values. */
export const COUNT_METRICS = [
  "conversations_count",
  "incoming_messages_count",
  "outgoing_messages_count",
  "resolutions_count",
  "bot_resolutions_count",
  "bot_handoffs_count",
] as const;
export const AVERAGE_METRICS = ["avg_first_response_time", "avg_resolution_time", "reply_time"] as const;
export const METRICS = [...COUNT_METRICS, ...AVERAGE_METRICS] as const;
export type CountMetric = (typeof COUNT_METRICS)[number];
export type AverageMetric = (typeof AVERAGE_METRICS)[number];
export type Metric = (typeof METRICS)[number];

export interface MetricQuery {
  accountId: number;
  scope: ReportScope;
  range: Range;
  /** The account's business calendar when values are counted in business hours. */
  businessCalendar: Sql | null;
}

/** The event each average is taken over (AverageReportBuilder#event_name). */
const AVERAGED_EVENT: Record<AverageMetric, ReportingEventName> = {
  avg_first_response_time: "first_response",
  avg_resolution_time: "conversation_resolved",
  reply_time: "reply_time",
};

function eventsOf(name: ReportingEventName, query: MetricQuery): Sql {
  const events = reportingEvents({ accountId: query.accountId, names: [name], range: query.range, businessCalendar: query.businessCalendar });
  return sql`SELECT e.created_at, e.conversation_id, e.value FROM ${events} AS e WHERE ${eventsIn(query.scope, "e")}`;
}

/** The rows a count metric counts (CountReportBuilder#object_scope), as (created_at, conversation_id). */
function countedRows(metric: CountMetric, query: MetricQuery): Sql {
  const messages = (type: number) =>
    sql`SELECT m.created_at, m.conversation_id FROM messages m
      WHERE m.account_id = ${query.accountId} AND m.message_type = ${type} AND ${within("m.created_at", query.range)} AND ${messagesIn(query.scope, "m")}`;
  switch (metric) {
    case "conversations_count":
      return sql`SELECT c.created_at, c.id AS conversation_id FROM conversations c
        WHERE c.account_id = ${query.accountId} AND ${within("c.created_at", query.range)} AND ${conversationsIn(query.scope, "c")}`;
    case "incoming_messages_count":
      return messages(0);
    case "outgoing_messages_count":
      return messages(1);
    case "resolutions_count":
      return eventsOf("conversation_resolved", query);
    case "bot_resolutions_count":
      return eventsOf("conversation_bot_resolved", query);
    case "bot_handoffs_count":
      return eventsOf("conversation_bot_handoff", query);
  }
}

/** Bot handoffs count conversations (Chatwoot selects distinct conversation ids); the rest count rows. */
const countOf = (metric: CountMetric) => sqlText(metric === "bot_handoffs_count" ? "count(DISTINCT x.conversation_id)" : "count(x.created_at)");

export const isAverage = (metric: Metric): metric is AverageMetric => (AVERAGE_METRICS as readonly string[]).includes(metric);

function sourceOf(metric: Metric, query: MetricQuery): Sql {
  return isAverage(metric) ? eventsOf(AVERAGED_EVENT[metric], query) : countedRows(metric, query);
}

/** The metric over the whole range: a count, or an average (null without events, as ActiveRecord's average). */
export async function aggregateValue(knex: Knex, metric: Metric, query: MetricQuery): Promise<number | null> {
  const value = isAverage(metric) ? sqlText("avg(x.value)::float8") : countOf(metric);
  const [row] = await rows<{ value: number | null }>(knex, sql`SELECT ${value} AS value FROM (${sourceOf(metric, query)}) AS x`);
  return row!.value === null ? null : Number(row!.value);
}

export interface CountPoint {
  value: number;
  timestamp: number;
}
export interface AveragePoint extends CountPoint {
  count: number;
}

/**
 * The metric per period of the range, empty periods included with 0 (groupdate's default_value):
 * `{value, timestamp}` for counts, `{value, timestamp, count}` for averages, oldest first.
 */
export async function timeseries(knex: Knex, metric: Metric, query: MetricQuery, groupBy: GroupBy, zone: ReportZone): Promise<CountPoint[] | AveragePoint[]> {
  assertSeriesFits(query.range, groupBy);
  const grouped = sql`SELECT ${periodStart(sqlText("x.created_at"), groupBy, zone)} AS period_start,
      ${isAverage(metric) ? sqlText("avg(x.value)::float8") : countOf(metric)} AS value, count(x.created_at) AS count
    FROM (${sourceOf(metric, query)}) AS x GROUP BY 1`;
  const series = await rows<{ timestamp: number; value: number | null; count: number | null }>(
    knex,
    sql`SELECT extract(epoch from s.period_start)::bigint AS timestamp, g.value, g.count
      FROM (${periodSeries(query.range, groupBy, zone)}) AS s LEFT JOIN (${grouped}) AS g ON g.period_start = s.period_start
      ORDER BY s.period_start`,
  );
  return series.map((point) => {
    const base = { value: Number(point.value ?? 0), timestamp: Number(point.timestamp) };
    return isAverage(metric) ? { ...base, count: Number(point.count ?? 0) } : base;
  });
}

/** MetricBuilder#summary's metrics in its order; an agent's summary has no incoming messages. */
const SUMMARY_METRICS: readonly Metric[] = [
  "conversations_count",
  "outgoing_messages_count",
  "avg_first_response_time",
  "avg_resolution_time",
  "resolutions_count",
  "reply_time",
  "incoming_messages_count",
];
const BOT_SUMMARY_METRICS: readonly Metric[] = ["bot_resolutions_count", "bot_handoffs_count"];
export type SummaryKind = "summary" | "bot_summary";

export type Summary = Record<string, number | null>;

/**
 * The metrics over a range. Without a range nothing matches, as Chatwoot's `where(created_at: nil)`:
 * counts are 0 and averages null.
 */
async function summaryOver(knex: Knex, kind: SummaryKind, query: Omit<MetricQuery, "range">, range: Range | null): Promise<Summary> {
  const metrics = (kind === "summary" ? SUMMARY_METRICS : BOT_SUMMARY_METRICS).filter(
    (metric) => !(metric === "incoming_messages_count" && query.scope.type === "agent"),
  );
  const values = await Promise.all(
    metrics.map((metric) => (range ? aggregateValue(knex, metric, { ...query, range }) : Promise.resolve(isAverage(metric) ? null : 0))),
  );
  return Object.fromEntries(metrics.map((metric, i) => [metric, values[i]!]));
}

/**
 * reports/summary and reports/bot_summary: the range's metrics and, under `previous`, those of the
 * range of the same length just before it.
 */
export async function summaryWithPrevious(
  knex: Knex,
  kind: SummaryKind,
  query: Omit<MetricQuery, "range">,
  range: Range | null,
): Promise<Record<string, number | null | Summary>> {
  const previousRange = range && { since: new Date(2 * range.since.getTime() - range.until.getTime()), until: range.since };
  const [current, previous] = await Promise.all([summaryOver(knex, kind, query, range), summaryOver(knex, kind, query, previousRange)]);
  return { ...current, previous };
}
