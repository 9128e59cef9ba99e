import type { Knex } from "knex";
import type { AgentBot } from "../models/AgentBot";
import { sql } from "../db/sql";
import { Conversation, type ConversationStatus, type Priority } from "../models/Conversation";
import { MESSAGE_TYPE, Message } from "../models/Message";
import type { User } from "../models/User";

/**
 * Who made a change: a user, an agent bot, an automation rule (Chatwoot's Current.executed_by), or
 * the system (null: timers). Chatwoot's Current.user, which names the actor in activity messages.
 */
export type Actor = { kind: "user"; user: User } | { kind: "agent_bot"; bot: AgentBot } | { kind: "automation_rule"; rule: { id: number } } | null;

/** Chatwoot's automation.system_name. */
export const AUTOMATION_ACTOR_NAME = "Automation System";

/** The name activity messages give the actor (User#available_name, AgentBot#name); null for the system. */
export function actorName(actor: Actor): string | null {
  if (!actor) return null;
  if (actor.kind === "automation_rule") return AUTOMATION_ACTOR_NAME;
  return actor.kind === "user" ? actor.user.availableName : (actor.bot.name ?? "");
}

/** The texts of config/locales/en.yml conversations.activity, which clients match on. */
const STATUS_TEXT: Record<ConversationStatus, (name: string) => string> = {
  resolved: (name) => `Conversation was marked resolved by ${name}`,
  open: (name) => `Conversation was reopened by ${name}`,
  pending: (name) => `Conversation was marked as pending by ${name}`,
  snoozed: (name) => `Conversation was snoozed by ${name}`,
};

/** A status change by the actor; the system's changes carry their own text (auto-resolve, reopen). */
export function statusActivity(status: ConversationStatus, name: string | null): string | null {
  return name === null ? null : STATUS_TEXT[status](name);
}

/** Chatwoot's auto_resolve_message_key: days when the minutes divide by 1440, then hours, else minutes. */
export function autoResolvedActivity(minutes: number): string {
  const [count, unit] = minutes % 1440 === 0 ? [minutes / 1440, "days"] : minutes % 60 === 0 ? [minutes / 60, "hours"] : [minutes, "minutes"];
  return `Conversation was marked resolved by system due to ${count} ${unit} of inactivity`;
}

export const SYSTEM_REOPENED_ACTIVITY = "System reopened the conversation due to a new incoming message.";
export const BOT_ERROR_REOPENED_ACTIVITY = "Conversation was marked open by system due to an error with the agent bot.";

export function priorityActivity(previous: Priority | null, current: Priority | null, name: string | null): string | null {
  if (name === null || previous === current) return null;
  if (previous && current) return `${name} changed the priority from ${previous} to ${current}`;
  if (current) return `${name} set the priority to ${current}`;
  return `${name} removed the priority`;
}

/** Assignment texts; a user assigning themselves "self-assigned". */
export function assigneeActivity(assigneeName: string | null, selfAssigned: boolean, name: string | null): string | null {
  if (name === null) return null;
  if (assigneeName === null) return `Conversation unassigned by ${name}`;
  if (selfAssigned) return `${name} self-assigned this conversation`;
  return `Assigned to ${assigneeName} by ${name}`;
}

/** conversations.activity.team: assigned, assigned_with_assignee (an agent assigned with the team), removed. */
export function teamChangeActivity(change: { teamName: string; assigned: boolean; assigneeName: string | null }, name: string | null): string | null {
  if (name === null) return null;
  if (!change.assigned) return `Unassigned from ${change.teamName} by ${name}`;
  if (change.assigneeName !== null) return `Assigned to ${change.assigneeName} via ${change.teamName} by ${name}`;
  return `Assigned to ${change.teamName} by ${name}`;
}

export function mutedActivity(name: string | null): string | null {
  return name === null ? null : `${name} has muted the conversation`;
}

export function unmutedActivity(name: string | null): string | null {
  return name === null ? null : `${name} has unmuted the conversation`;
}

export function labelActivities(added: string[], removed: string[], name: string | null): string[] {
  if (name === null) return [];
  return [...(added.length ? [`${name} added ${added.join(", ")}`] : []), ...(removed.length ? [`${name} removed ${removed.join(", ")}`] : [])];
}

/**
 * Writes an activity message into the conversation. Activity messages never go to webhooks, but
 * like every message they move the conversation's last activity.
 */
export async function insertActivityMessage(trx: Knex.Transaction, conversation: Conversation, content: string): Promise<Message> {
  const message = await Message.query(trx)
    .insert({
      account_id: conversation.account_id,
      inbox_id: conversation.inbox_id,
      conversation_id: conversation.id,
      message_type: MESSAGE_TYPE.activity,
      content,
    })
    .returning("*");
  await trx("conversations")
    .where("id", conversation.id)
    .update({ last_activity_at: Conversation.activityAfter(sql`${message.created_at}`).raw(trx) });
  return message;
}
