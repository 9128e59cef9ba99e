import { businessSeconds } from "./businessHours";
import { type Range, within } from "./periods";
import { joinSql, type Sql, sql, sqlText } from "../../db/sql";

/**
 * Chatwoot's reporting_events, derived with SQL from rows this service already keeps, with no table
 * of their own. Chatwoot's ReportingEventListener writes a row per event; here each event is read
 * back from where its facts live (value in seconds; user_id is whom the event counts for):
 *
 * - conversation_resolved: each status change to resolved, as the events outbox records it (the
 *   conversation_updated rows whose changed_attributes carry `status`, written in the transaction of
 *   the change, whoever made it: a user, a bot, a rule or the auto-resolve timer). Value: resolved
 *   at − conversation created_at. User: the assignee at that moment (Chatwoot: the resolving user
 *   when a user resolved, else the assignee).
 * - conversation_bot_resolved: those resolutions in an inbox with an active agent bot, where no user
 *   had sent an outgoing message by then (Chatwoot checks the inbox's bot as it resolves; this
 *   checks it now). Value and user as the resolution.
 * - conversation_bot_handoff: the conversation's first status change from pending to open (Chatwoot
 *   records only an agent bot's; the outbox does not say who made the change). Value: handed off at
 *   − conversation created_at. User: the assignee at that moment.
 * - first_response: the conversation's first public human reply, as messages.ts's firstReply picks
 *   it (outgoing, a user's or an external echo, not automation's or a campaign's, no such message
 *   before it). Value: reply − the handoff if one came before, else conversation created_at
 *   (ReportingEventHelper#last_non_human_activity). User: the reply's sender.
 * - reply_time: each later public human reply while the conversation waits, the wait replayed as
 *   messages.ts moves waiting_since: it starts with the first incoming message after the last public
 *   reply (a human's or a bot's) or resolution. A bot handoff's own start of a wait is not replayed.
 *   Value: reply − start of the wait. User: the reply's sender.
 *
 * An event's created_at is when it happened (the change or the reply). Values are whole seconds as
 * Chatwoot subtracts them; with business hours they are the time inside the inbox's working hours
 * (businessHours.ts), Chatwoot's value_in_business_hours. Every query is scoped to one account.
 */
export const REPORTING_EVENTS = ["conversation_resolved", "conversation_bot_resolved", "conversation_bot_handoff", "first_response", "reply_time"] as const;
export type ReportingEventName = (typeof REPORTING_EVENTS)[number];

export interface HistoryQuery {
  accountId: number;
  names: readonly ReportingEventName[];
  /** Events that happened in [since, until); all of them without a range. */
  range: Range | null;
  /** The account's business calendar (businessCalendar): values in business hours instead of wall-clock seconds. */
  businessCalendar: Sql | null;
}

/** The outbox rows that record a status change, in the words of the partial indexes over them. */
const statusChange = (e: string) => sqlText(`${e}.name = 'conversation_updated' AND jsonb_path_exists(${e}.payload -> 'changed_attributes', '$[*].status')`);
const statusValue = (e: string, side: "previous_value" | "current_value") =>
  sqlText(`(jsonb_path_query_first(${e}.payload -> 'changed_attributes', '$[*].status') ->> '${side}')`);
const resolution = (e: string) => sql`${statusChange(e)} AND ${statusValue(e, "current_value")} = 'resolved'`;
const handoff = (e: string) => sql`${statusChange(e)} AND ${statusValue(e, "previous_value")} = 'pending' AND ${statusValue(e, "current_value")} = 'open'`;
/** The user the conversation was assigned to when the change was recorded. */
const assigneeAt = (e: string) =>
  sqlText(`CASE WHEN ${e}.payload -> 'meta' ->> 'assignee_type' = 'User' THEN (${e}.payload -> 'meta' -> 'assignee' ->> 'id')::bigint END`);

/** Message#human_response? (messages.ts humanResponse): an agent's own outgoing message. */
const humanResponse = (m: string) =>
  sqlText(
    `(${m}.message_type = 1 AND ${m}.content_attributes ->> 'automation_rule_id' IS NULL AND ${m}.additional_attributes ->> 'campaign_id' IS NULL` +
      ` AND (${m}.sender_type = 'User' OR ${m}.content_attributes ->> 'external_echo' = 'true'))`,
  );
const publicReply = (m: string) => sql`(${humanResponse(m)} AND NOT ${sqlText(m)}.private)`;
/** What Message#valid_first_reply? counts: public outgoing messages of users (not bots), not campaigns'. */
const countedOutgoing = (m: string) =>
  sqlText(
    `(${m}.message_type = 1 AND NOT ${m}.private AND ${m}.sender_type IS NOT NULL AND ${m}.sender_type <> 'AgentBot' AND ${m}.additional_attributes -> 'campaign_id' IS NULL)`,
  );
/** A public reply by a human or a bot stops the wait (messages.ts replyTimes). */
const stopsWaiting = (m: string) =>
  sql`(${sqlText(m)}.message_type = 1 AND NOT ${sqlText(m)}.private AND (${humanResponse(m)} OR ${sqlText(m)}.sender_type = 'AgentBot'))`;
/** An earlier message of r's conversation that is, or would have blocked, the first reply. */
const replyBefore = (r: string) =>
  sql`EXISTS (SELECT 1 FROM messages p WHERE p.conversation_id = ${sqlText(r)}.conversation_id AND (p.created_at, p.id) < (${sqlText(r)}.created_at, ${sqlText(r)}.id) AND (${countedOutgoing("p")} OR ${publicReply("p")}))`;

/** The columns every derived event has (with the conversation's team and labels, for scopes). */
function eventRow(name: ReportingEventName, at: Sql, userId: Sql, start: Sql, query: HistoryQuery): Sql {
  const value = query.businessCalendar
    ? businessSeconds(sqlText("c.inbox_id"), start, at)
    : sql`(floor(extract(epoch from ${at})) - floor(extract(epoch from ${start})))::float8`;
  return sql`SELECT ${sqlText(`'${name}'`)}::text AS name, ${at} AS created_at, c.id AS conversation_id, c.inbox_id, ${userId} AS user_id,
    c.team_id, c.labels, ${value} AS value`;
}

function resolutions(query: HistoryQuery, name: "conversation_resolved" | "conversation_bot_resolved"): Sql {
  const botOnly =
    name === "conversation_bot_resolved"
      ? sql` AND EXISTS (SELECT 1 FROM agent_bot_inboxes abi WHERE abi.inbox_id = c.inbox_id AND abi.status = 'active')
        AND NOT EXISTS (SELECT 1 FROM messages u WHERE u.conversation_id = c.id AND u.message_type = 1 AND u.sender_type = 'User' AND u.created_at <= e.created_at)`
      : sqlText("");
  return sql`${eventRow(name, sqlText("e.created_at"), assigneeAt("e"), sqlText("c.created_at"), query)}
    FROM events e JOIN conversations c ON c.id = e.conversation_id
    WHERE e.account_id = ${query.accountId} AND ${resolution("e")} AND ${within("e.created_at", query.range)}${botOnly}`;
}

function handoffs(query: HistoryQuery): Sql {
  return sql`${eventRow("conversation_bot_handoff", sqlText("e.created_at"), assigneeAt("e"), sqlText("c.created_at"), query)}
    FROM events e JOIN conversations c ON c.id = e.conversation_id
    WHERE e.account_id = ${query.accountId} AND ${handoff("e")} AND ${within("e.created_at", query.range)}
      AND NOT EXISTS (SELECT 1 FROM events p WHERE p.conversation_id = e.conversation_id AND ${handoff("p")} AND (p.created_at, p.id) < (e.created_at, e.id))`;
}

/** Human public replies (`r`) of the account in the range, with their conversation as `c`. */
const REPLIES = sqlText("FROM messages r JOIN conversations c ON c.id = r.conversation_id");
const replyConditions = (query: HistoryQuery) => sql`r.account_id = ${query.accountId} AND ${publicReply("r")} AND ${within("r.created_at", query.range)}`;
const replySender = sqlText("CASE WHEN r.sender_type = 'User' THEN r.sender_id END");

function firstResponses(query: HistoryQuery): Sql {
  // ReportingEventHelper#last_non_human_activity: the bot handoff when there was one, else the creation.
  const start = sql`coalesce((SELECT min(h.created_at) FROM events h WHERE h.conversation_id = c.id AND ${handoff("h")} AND h.created_at <= r.created_at), c.created_at)`;
  return sql`${eventRow("first_response", sqlText("r.created_at"), replySender, start, query)}
    ${REPLIES}
    WHERE ${replyConditions(query)} AND NOT ${replyBefore("r")}`;
}

function replyTimes(query: HistoryQuery): Sql {
  const lastStop = sql`LEFT JOIN LATERAL (
      SELECT x.at, x.seq FROM (
        (SELECT m.created_at AS at, m.id AS seq FROM messages m
          WHERE m.conversation_id = r.conversation_id AND ${stopsWaiting("m")} AND (m.created_at, m.id) < (r.created_at, r.id)
          ORDER BY m.created_at DESC, m.id DESC LIMIT 1)
        UNION ALL
        (SELECT s.created_at, 0 FROM events s
          WHERE s.conversation_id = r.conversation_id AND ${resolution("s")} AND s.created_at <= r.created_at
          ORDER BY s.created_at DESC LIMIT 1)
      ) x ORDER BY x.at DESC, x.seq DESC LIMIT 1
    ) stop ON TRUE`;
  const waitStart = sql`CROSS JOIN LATERAL (
      SELECT min(i.created_at) AS since FROM messages i
      WHERE i.conversation_id = r.conversation_id AND i.message_type = 0 AND (i.created_at, i.id) < (r.created_at, r.id)
        AND (stop.at IS NULL OR (i.created_at, i.id) > (stop.at, stop.seq))
    ) wait`;
  return sql`${eventRow("reply_time", sqlText("r.created_at"), replySender, sqlText("wait.since"), query)}
    ${REPLIES} ${lastStop} ${waitStart}
    WHERE ${replyConditions(query)} AND ${replyBefore("r")} AND wait.since IS NOT NULL`;
}

const BRANCHES: Record<ReportingEventName, (query: HistoryQuery) => Sql> = {
  conversation_resolved: (query) => resolutions(query, "conversation_resolved"),
  conversation_bot_resolved: (query) => resolutions(query, "conversation_bot_resolved"),
  conversation_bot_handoff: handoffs,
  first_response: firstResponses,
  reply_time: replyTimes,
};

/**
 * The derived reporting events as a subquery (name, created_at, conversation_id, inbox_id, user_id,
 * team_id, labels, value), to be selected from `AS <alias>`.
 */
export function reportingEvents(query: HistoryQuery): Sql {
  const branches = joinSql(
    query.names.map((name) => sql`(${BRANCHES[name](query)})`),
    " UNION ALL ",
  );
  const calendar = query.businessCalendar ? sql`WITH business_calendar AS (${query.businessCalendar}) ` : sqlText("");
  return sql`(${calendar}SELECT * FROM (${branches}) AS derived)`;
}
