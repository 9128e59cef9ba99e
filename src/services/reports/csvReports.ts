import type { Knex } from "knex";
import { stringify } from "csv-stringify/sync";
import { accountTeams } from "./dimensions";
import { summaryWithPrevious } from "./metrics";
import type { Range, ReportZone } from "./periods";
import { conversationTraffic } from "./breakdowns";
import { dimensionSummary, labelSummary, type SummaryQuery } from "./summaryReports";

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The CSV's first line, as Chatwoot's reports.period, when a range was asked for. */
const periodLines = (range: Range | null): unknown[][] => (range ? [[`Reporting period ${day(range.since)} to ${day(range.until)}`], []] : []);

/** Seconds, whole, or blank where there was nothing to average. */
const seconds = (value: number | null | undefined) => (value === null || value === undefined ? "" : Math.round(value));

const HEADERS = {
  agent: "Agent name",
  inbox: "Inbox name",
  team: "Team name",
  label: "Label title",
} as const;

async function namesOf(knex: Knex, dimension: "agent" | "inbox" | "team", accountId: number): Promise<Map<number, string>> {
  const list: { id: number; name: string }[] =
    dimension === "agent"
      ? await knex("account_users as au").join("users as u", "u.id", "au.user_id").where("au.account_id", accountId).select("u.id", "u.name")
      : dimension === "inbox"
        ? await knex("inboxes").where("account_id", accountId).select("id", "name")
        : await accountTeams(knex, accountId);
  return new Map(list.map((row) => [Number(row.id), row.name]));
}

/** reports/agents|inboxes|teams|labels: one line per subject, as the summary reports count them (times in seconds). */
export async function dimensionCsv(knex: Knex, dimension: "agent" | "inbox" | "team" | "label", query: SummaryQuery): Promise<string> {
  const header = [HEADERS[dimension], "Conversations count", "Avg first response time", "Avg resolution time", "Resolution Count", "Avg customer waiting time"];
  let lines: unknown[][];
  if (dimension === "label") {
    lines = (await labelSummary(knex, query)).map((row) => [
      row.name,
      row.conversations_count,
      seconds(row.avg_first_response_time),
      seconds(row.avg_resolution_time),
      row.resolved_conversations_count,
      seconds(row.avg_reply_time),
    ]);
  } else {
    const [summary, names] = await Promise.all([dimensionSummary(knex, dimension, query), namesOf(knex, dimension, query.accountId)]);
    lines = summary.map((row) => [
      names.get(row.id) ?? "",
      row.conversations_count,
      seconds(row.avg_first_response_time),
      seconds(row.avg_resolution_time),
      row.resolved_conversations_count,
      seconds(row.avg_reply_time),
    ]);
  }
  return stringify([...periodLines(query.range), header, ...lines]);
}

/** reports/conversations_summary: the account's totals over the range on one line. */
export async function conversationsSummaryCsv(knex: Knex, query: SummaryQuery): Promise<string> {
  const summary = await summaryWithPrevious(
    knex,
    "summary",
    { accountId: query.accountId, scope: { type: "account" }, businessCalendar: query.businessCalendar },
    query.range,
  );
  const value = (key: string) => summary[key] as number | null;
  const header = [
    "Conversations count",
    "Incoming Messages count",
    "Outgoing Messages count",
    "Avg first response time",
    "Avg resolution time",
    "Resolution Count",
    "Avg customer waiting time",
  ];
  const line = [
    value("conversations_count"),
    value("incoming_messages_count") ?? 0,
    value("outgoing_messages_count"),
    seconds(value("avg_first_response_time")),
    seconds(value("avg_resolution_time")),
    value("resolutions_count"),
    seconds(value("reply_time")),
  ];
  return stringify([...periodLines(query.range), header, line]);
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00 - ${String((h + 1) % 24).padStart(2, "0")}:00`);

/** reports/conversation_traffic: conversations created per weekday and hour, in the account's zone, then in UTC. */
export async function conversationTrafficCsv(knex: Knex, accountId: number, range: Range | null, zone: ReportZone): Promise<string> {
  const grid = (cells: number[][]) => [["Day", ...HOURS], ...cells.map((counts, dow) => [WEEKDAYS[dow], ...counts])];
  const [local, utc] = await Promise.all([conversationTraffic(knex, accountId, range, zone), conversationTraffic(knex, accountId, range, { name: "UTC" })]);
  return stringify([...grid(local), [], ...grid(utc), ["The second table counts in UTC; the first in the account's timezone."]]);
}
