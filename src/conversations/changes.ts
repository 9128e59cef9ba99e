/*
 * The one way a conversation's columns change: Chatwoot's model rules, the actor's activity
 * messages and the events, inside a unit of work. The named changes (status, assignment,
 * attributes) are in their own modules over this one.
 */
import type { Knex } from "knex";
import { jsonEqual } from "../lib/jsonEqual";
import { AgentBot } from "../models/AgentBot";
import { Conversation, type ConversationStatus, type Priority } from "../models/Conversation";
import { Team, TeamMember } from "../models/Team";
import { User } from "../models/User";
import { iso } from "../presenters/time";
import {
  type Actor,
  actorName,
  assigneeActivity,
  insertActivityMessage,
  labelActivities,
  mutedActivity,
  teamChangeActivity,
  unmutedActivity,
  priorityActivity,
  statusActivity,
} from "./activityMessages";
import { type ChangedAttributes, noteActor, type Unit } from "./unit";

/** The columns a change may touch. */
export interface ConversationPatch {
  status?: ConversationStatus;
  snoozed_until?: Date | null;
  priority?: Priority | null;
  assignee_id?: number | null;
  assignee_agent_bot_id?: number | null;
  labels?: string[];
  custom_attributes?: Record<string, unknown>;
  waiting_since?: Date | null;
  first_reply_created_at?: Date | null;
  muted?: boolean;
  team_id?: number | null;
}
type PatchKey = keyof ConversationPatch;

/** Changes that Chatwoot announces as conversation_updated (Conversation#list_of_keys). */
const ANNOUNCED: ReadonlySet<PatchKey> = new Set([
  "team_id",
  "assignee_id",
  "assignee_agent_bot_id",
  "status",
  "snoozed_until",
  "custom_attributes",
  "labels",
  "waiting_since",
  "first_reply_created_at",
  "priority",
]);

/** Chatwoot names the label column label_list in changed_attributes. */
const CHANGE_NAMES: Partial<Record<PatchKey, string>> = { labels: "label_list" };

/** A column value as Rails' JSON renders it, for changed_attributes and comparisons. */
function jsonValue(value: unknown): unknown {
  return value instanceof Date ? iso(value) : value;
}

export interface ChangeOptions {
  actor: Actor;
  /** The status activity text instead of the actor's (auto-resolve, a system reopen); null writes none. */
  statusActivity?: string | null;
}

/**
 * Applies a change to a conversation with Chatwoot's model rules (snoozed_until only while snoozed,
 * resolving stops the wait), writes the activity messages of the actor, and queues
 * conversation_status_changed and conversation_updated.
 */
export async function changeConversation(unit: Unit, conversationId: number, patch: ConversationPatch, options: ChangeOptions): Promise<Conversation> {
  noteActor(unit, options.actor);
  const before = await Conversation.lock(unit.trx, conversationId);
  const next: ConversationPatch = { ...patch };
  const status = next.status ?? before.status;
  if (status !== "snoozed") next.snoozed_until = null;
  if (status === "resolved" && before.status !== "resolved") next.waiting_since = null;
  if (next.team_id !== undefined && next.team_id !== before.team_id) {
    const assigneeId = next.assignee_id !== undefined ? next.assignee_id : before.assignee_id;
    if (await assigneeOutsideTeam(unit.trx, next.team_id, assigneeId)) next.assignee_id = null;
  }

  const changes = (Object.keys(next) as PatchKey[]).filter((key) => !jsonEqual(jsonValue(next[key]), jsonValue(before[key])));
  if (!changes.length) return before;

  const updatedAt = new Date();
  // One statement: the row as written, without reading it again.
  const [after] = await Conversation.query(unit.trx)
    .patch({ ...Object.fromEntries(changes.map((key) => [key, next[key]])), updated_at: updatedAt })
    .where("id", before.id)
    .returning("*");
  await writeActivities(unit.trx, before, after, changes, options);

  const changed: ChangedAttributes = [...changes, "updated_at" as const].map((key) => ({
    [CHANGE_NAMES[key as PatchKey] ?? key]: { previous_value: jsonValue(before[key]), current_value: jsonValue(after[key]) },
  }));
  if (changes.includes("status")) unit.events.push({ name: "conversation_status_changed", conversationId: before.id });
  if (changes.some((key) => ANNOUNCED.has(key))) unit.events.push({ name: "conversation_updated", conversationId: before.id, changed });
  return after;
}

async function writeActivities(trx: Knex.Transaction, before: Conversation, after: Conversation, changes: PatchKey[], options: ChangeOptions) {
  const name = actorName(options.actor);
  const texts: (string | null)[] = [];
  if (changes.includes("status")) {
    texts.push(options.statusActivity !== undefined ? options.statusActivity : statusActivity(after.status, name));
  }
  if (changes.includes("team_id")) {
    texts.push(await teamActivity(trx, before, after, changes.includes("assignee_id"), name));
  } else if (changes.includes("assignee_id") || changes.includes("assignee_agent_bot_id")) {
    const assignee = after.assignee_id
      ? ((await User.query(trx).findById(after.assignee_id))?.availableName ?? null)
      : after.assignee_agent_bot_id
        ? ((await AgentBot.query(trx).findById(after.assignee_agent_bot_id))?.name ?? null)
        : null;
    const selfAssigned = options.actor?.kind === "user" && options.actor.user.id === after.assignee_id;
    texts.push(assigneeActivity(assignee, selfAssigned, name));
  }
  if (changes.includes("muted")) texts.push(after.muted ? mutedActivity(name) : unmutedActivity(name));
  if (changes.includes("priority")) texts.push(priorityActivity(before.priority, after.priority, name));
  if (changes.includes("labels")) {
    texts.push(
      ...labelActivities(
        after.labels.filter((label) => !before.labels.includes(label)),
        before.labels.filter((label) => !after.labels.includes(label)),
        name,
      ),
    );
  }
  for (const text of texts) if (text) await insertActivityMessage(trx, after, text);
}

/**
 * AssignmentHandler#ensure_assignee_is_from_team: a new team keeps the assigned agent only if they
 * are one of its members. (Chatwoot then picks an online team member when none is left; without
 * presence tracking here no agent is online, so the conversation stays unassigned.)
 */
export async function assigneeOutsideTeam(db: Knex, teamId: number | null, assigneeId: number | null): Promise<boolean> {
  if (teamId === null || assigneeId === null) return false;
  return !(await TeamMember.query(db).findOne({ team_id: teamId, user_id: assigneeId }));
}

/** AssignmentHandler#create_team_change_activity: a team change names the team (and the agent assigned with it). */
async function teamActivity(db: Knex, before: Conversation, after: Conversation, assigneeChanged: boolean, name: string | null): Promise<string | null> {
  const team = after.team_id ?? before.team_id;
  const teamName = team === null ? undefined : (await Team.query(db).findById(team))?.name;
  const assignee = assigneeChanged && after.assignee_id ? ((await User.query(db).findById(after.assignee_id))?.availableName ?? null) : null;
  return teamChangeActivity({ teamName: teamName ?? "", assigned: after.team_id !== null, assigneeName: assignee }, name);
}
