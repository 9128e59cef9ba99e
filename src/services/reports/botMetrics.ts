import type { Knex } from "knex";
import { reportingEvents } from "./history";
import type { Range } from "./periods";
import { sql } from "../../db/sql";
import { rows } from "./sql";

export interface BotMetrics {
  conversation_count: number;
  message_count: number;
  resolution_rate: number;
  handoff_rate: number;
}

/**
 * V2::Reports::BotMetricsBuilder: the range's conversations in inboxes with an active agent bot,
 * their outgoing messages, and the share of them (whole percent, truncated) the bot resolved or
 * handed off. Without a range nothing matches.
 */
export async function botMetrics(knex: Knex, accountId: number, range: Range | null): Promise<BotMetrics> {
  if (!range) return { conversation_count: 0, message_count: 0, resolution_rate: 0, handoff_rate: 0 };
  const conversations = sql`SELECT c.id FROM conversations c
    WHERE c.account_id = ${accountId} AND c.created_at >= ${range.since} AND c.created_at < ${range.until}
      AND EXISTS (SELECT 1 FROM agent_bot_inboxes abi WHERE abi.inbox_id = c.inbox_id AND abi.status = 'active')`;
  const distinctConversations = (name: "conversation_bot_resolved" | "conversation_bot_handoff") =>
    sql`(SELECT count(DISTINCT e.conversation_id) FROM ${reportingEvents({ accountId, names: [name], range, businessCalendar: null })} AS e)`;
  const [row] = await rows<{ conversations: number; messages: number; resolved: number; handed_off: number }>(
    knex,
    sql`SELECT (SELECT count(*) FROM (${conversations}) AS bc) AS conversations,
      (SELECT count(*) FROM messages m WHERE m.account_id = ${accountId} AND m.message_type = 1
        AND m.created_at >= ${range.since} AND m.created_at < ${range.until} AND m.conversation_id IN (${conversations})) AS messages,
      ${distinctConversations("conversation_bot_resolved")} AS resolved,
      ${distinctConversations("conversation_bot_handoff")} AS handed_off`,
  );
  const total = Number(row!.conversations);
  const rate = (count: number) => (total === 0 ? 0 : Math.trunc((Number(count) / total) * 100));
  return { conversation_count: total, message_count: Number(row!.messages), resolution_rate: rate(row!.resolved), handoff_rate: rate(row!.handed_off) };
}
