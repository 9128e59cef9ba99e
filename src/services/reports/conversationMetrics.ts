import type { Knex } from "knex";
import { AccountUser } from "../../models/AccountUser";
import { User } from "../../models/User";
import { avatarUrlOf } from "../avatars";

/** V2::ReportBuilder's page size for the agents' conversation metrics. */
export const AGENTS_PER_PAGE = 25;

export interface LiveMetric {
  open: number;
  unattended: number;
  unassigned?: number;
}

const OPEN_COUNTS = {
  open: "count(*)",
  unattended: "count(*) FILTER (WHERE first_reply_created_at IS NULL OR waiting_since IS NOT NULL)",
  unassigned: "count(*) FILTER (WHERE assignee_id IS NULL)",
};

/**
 * Open conversations right now (V2::ReportBuilder#live_conversations): all of them, those
 * unattended (never answered, or waiting for an answer) and those unassigned.
 */
export async function accountConversationMetrics(knex: Knex, accountId: number): Promise<LiveMetric> {
  const row = await knex("conversations")
    .where({ account_id: accountId, status: "open" })
    .first(...Object.entries(OPEN_COUNTS).map(([name, count]) => knex.raw(`${count} AS ${name}`)));
  return { open: Number(row.open), unattended: Number(row.unattended), unassigned: Number(row.unassigned) };
}

export interface AgentConversationMetric {
  id: number;
  name: string;
  email: string;
  thumbnail: string;
  availability: string;
  metric: LiveMetric;
}

/** One page of the account's members with their open and unattended conversations, most open first. */
export async function agentConversationMetrics(knex: Knex, accountId: number, page: number): Promise<AgentConversationMetric[]> {
  const members = await AccountUser.query(knex)
    .where("account_id", accountId)
    .orderBy("id")
    .limit(AGENTS_PER_PAGE)
    .offset((page - 1) * AGENTS_PER_PAGE);
  const userIds = members.map((member) => member.user_id);
  const [users, counts] = await Promise.all([
    User.query(knex).findByIds(userIds),
    knex("conversations")
      .where({ account_id: accountId, status: "open" })
      .whereIn("assignee_id", userIds)
      .groupBy("assignee_id")
      .select("assignee_id", knex.raw(`${OPEN_COUNTS.open} AS open`), knex.raw(`${OPEN_COUNTS.unattended} AS unattended`)),
  ]);
  const userById = new Map(users.map((user) => [user.id, user]));
  const countsOf = new Map(counts.map((row: { assignee_id: number; open: number; unattended: number }) => [row.assignee_id, row]));
  const metrics = members.map((member) => {
    const user = userById.get(member.user_id)!;
    const own = countsOf.get(user.id);
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      thumbnail: avatarUrlOf(user),
      availability: member.availability,
      metric: { open: Number(own?.open ?? 0), unattended: Number(own?.unattended ?? 0) },
    };
  });
  // Chatwoot sorts by open ascending and reverses: most open first, later members first among equals.
  return metrics.reverse().sort((a, b) => b.metric.open - a.metric.open);
}
