/*
 * Conversation changes: every change a route, the public API, automation or a timer makes, with its
 * activity messages and events, in one unit of work. Over 300 lines because each change is a short
 * function over the one shared changeConversation; loading lives in conversationGraph.ts and building a
 * new conversation in newConversation.ts.
 */
import type { Knex } from "knex";
import { ValidationError } from "../errors";
import { jsonEqual } from "../lib/jsonEqual";
import { AccountUser } from "../models/AccountUser";
import { AgentBot } from "../models/AgentBot";
import { Contact } from "../models/Contact";
import { Conversation, type ConversationStatus, type Priority } from "../models/Conversation";
import type { Member } from "../models/InboxMember";
import { Team, TeamMember } from "../models/Team";
import { User } from "../models/User";
import { contactWebhookData } from "../presenters/contact";
import { type ConversationGraph, conversationWebhookData } from "../presenters/conversation";
import { messageWebhookData } from "../presenters/message";
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
import { validateCustomAttributes } from "./customAttributes";
import { loadConversationGraph, loadMessage } from "./conversationGraph";
import { type EventRecord, recordEvent } from "./events";

/** `[{attr: {previous_value, current_value}}, ...]` (BaseListener#extract_changed_attributes). */
export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>[];

type PendingEvent =
  | { name: "conversation_created" | "conversation_status_changed"; conversationId: number }
  | { name: "conversation_updated"; conversationId: number; changed: ChangedAttributes }
  | { name: "message_created" | "message_updated"; conversationId: number; messageId: number }
  | { name: "contact_updated"; conversationId: number; contactId: number; changed: ChangedAttributes };

/**
 * One transaction's work on conversations and the events it raises, in the order Chatwoot raises
 * them. Payloads are built once the work is done, from the state it leaves, as Chatwoot's jobs
 * build them from the database when they run; changed_attributes are captured as each change happens.
 */
export interface Unit {
  trx: Knex.Transaction;
  events: PendingEvent[];
  /** The automation rule that acted in this unit: its events carry it so that rules skip them. */
  performedByRuleId?: number;
}

/** Remembers an automation rule acting in the unit (Chatwoot's performed_by). */
export function noteActor(unit: Unit, actor: Actor): void {
  if (actor?.kind === "automation_rule") unit.performedByRuleId = actor.rule.id;
}

/** A conversation's graph as the unit left it, loaded at most once per unit. */
export type GraphOf = (conversationId: number) => Promise<ConversationGraph>;

/** What a unit's view reads with: its transaction and the graphs its events loaded. */
export interface Settled {
  trx: Knex.Transaction;
  graphOf: GraphOf;
}

/**
 * Runs fn in a unit (a new transaction unless db already is one) and records its events in the same
 * transaction; then view, if given, reads the result there too. Graphs are loaded only once the work
 * is done, so the events and the view share one per conversation and nothing can make it stale.
 */
export async function inUnit<T>(db: Knex, fn: (unit: Unit) => Promise<T>): Promise<T>;
export async function inUnit<T, R>(db: Knex, fn: (unit: Unit) => Promise<T>, view: (result: T, settled: Settled) => Promise<R>): Promise<R>;
export async function inUnit<T, R>(db: Knex, fn: (unit: Unit) => Promise<T>, view?: (result: T, settled: Settled) => Promise<R>): Promise<T | R> {
  const run = async (trx: Knex.Transaction) => {
    const unit: Unit = { trx, events: [] };
    const result = await fn(unit);
    const graphOf = graphsOf(trx);
    await recordPending(unit, graphOf);
    return view ? view(result, { trx, graphOf }) : result;
  };
  return db.isTransaction ? run(db as Knex.Transaction) : db.transaction(run);
}

function graphsOf(trx: Knex.Transaction): GraphOf {
  const graphs = new Map<number, Promise<ConversationGraph>>();
  return (conversationId) => {
    let graph = graphs.get(conversationId);
    if (!graph) {
      graph = Conversation.query(trx)
        .findById(conversationId)
        .throwIfNotFound()
        .then((conversation) => loadConversationGraph(trx, conversation));
      graphs.set(conversationId, graph);
    }
    return graph;
  };
}

async function recordPending({ trx, events, performedByRuleId }: Unit, graphOf: GraphOf): Promise<void> {
  const records: EventRecord[] = [];
  for (const event of events) {
    const graph = await graphOf(event.conversationId);
    const scope = { accountId: graph.conversation.account_id, inboxId: graph.conversation.inbox_id, conversationId: graph.conversation.id, performedByRuleId };
    records.push({ ...scope, name: event.name, payload: { ...(await payloadOf(trx, event, graph)), event: event.name } });
  }
  await recordEvent(trx, records);
}

async function payloadOf(trx: Knex.Transaction, event: PendingEvent, graph: ConversationGraph): Promise<Record<string, unknown>> {
  switch (event.name) {
    case "conversation_created":
      return conversationWebhookData(graph);
    case "conversation_status_changed":
      // Chatwoot reads status_change after the save has cleared it, so consumers always get null.
      return { ...conversationWebhookData(graph), changed_attributes: null };
    case "conversation_updated":
      return { ...conversationWebhookData(graph), changed_attributes: event.changed };
    case "message_created":
    case "message_updated": {
      const { message, sender } = await loadMessage(trx, graph, event.messageId);
      return messageWebhookData(message, sender, { account: graph.account, inbox: graph.inbox, conversation: conversationWebhookData(graph) });
    }
    case "contact_updated": {
      const contact = graph.contact?.id === event.contactId ? graph.contact : await Contact.query(trx).findById(event.contactId).throwIfNotFound();
      return { ...contactWebhookData(contact, graph.account), changed_attributes: event.changed };
    }
  }
}

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
  const after = await Conversation.query(unit.trx).patchAndFetchById(before.id, {
    ...Object.fromEntries(changes.map((key) => [key, next[key]])),
    updated_at: updatedAt,
  });
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

export interface StatusChange {
  /** Absent: toggle (open ⇄ resolved; pending and snoozed open). */
  status?: ConversationStatus;
  snoozedUntil?: Date | null;
}

export interface StatusResult {
  conversation: Conversation;
  /** What Chatwoot's toggle_status answers as `success` (nil for a bot handoff). */
  success: boolean | null;
}

/**
 * The toggle_status endpoint: an explicit status (with snoozed_until for snoozed), or a toggle. An
 * agent bot opening a pending conversation hands it to humans: it starts waiting for an agent.
 */
export async function toggleStatus(db: Knex, conversation: Conversation, change: StatusChange, actor: Actor): Promise<StatusResult> {
  return inUnit(db, async (unit) => {
    const current = await Conversation.lock(unit.trx, conversation.id);
    if (actor?.kind === "agent_bot" && current.status === "pending" && change.status === "open") {
      const handedOff = await changeConversation(unit, current.id, { status: "open", waiting_since: current.waiting_since ?? new Date() }, { actor });
      return { conversation: handedOff, success: null };
    }
    const status = change.status ?? (current.status === "open" ? "resolved" : "open");
    const patch: ConversationPatch = { status };
    if (change.snoozedUntil !== undefined) patch.snoozed_until = change.snoozedUntil;
    return { conversation: await changeConversation(unit, current.id, patch, { actor }), success: true };
  });
}

/**
 * Resolves the conversation, for callers outside HTTP too (auto-resolve timers): activityContent
 * replaces the actor's activity text, e.g. autoResolvedActivity(minutes) for the system.
 */
export async function resolveConversation(
  db: Knex,
  conversation: Conversation,
  actor: Actor,
  options: { activityContent?: string } = {},
): Promise<Conversation> {
  return inUnit(db, (unit) =>
    changeConversation(
      unit,
      conversation.id,
      { status: "resolved" },
      { actor, ...(options.activityContent !== undefined ? { statusActivity: options.activityContent } : {}) },
    ),
  );
}

/** Opens the conversation with a fixed activity text (snooze ends, an agent bot fails). */
export async function openConversation(db: Knex, conversation: Conversation, actor: Actor, options: { activityContent?: string } = {}): Promise<Conversation> {
  return inUnit(db, (unit) =>
    changeConversation(
      unit,
      conversation.id,
      { status: "open" },
      { actor, ...(options.activityContent !== undefined ? { statusActivity: options.activityContent } : {}) },
    ),
  );
}

/** Conversation#mute!: resolved, and later contact messages no longer reopen it. */
export async function muteConversation(db: Knex, conversation: Conversation, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { status: "resolved", muted: true }, { actor }));
}

/** Conversation#unmute!: contact messages reopen it again. */
export async function unmuteConversation(db: Knex, conversation: Conversation, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { muted: false }, { actor }));
}

export async function setPriority(db: Knex, conversation: Conversation, priority: Priority | null, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { priority }, { actor }));
}

/** Replaces the labels (Chatwoot's update_labels); duplicates collapse, order is kept. */
export async function setLabels(db: Knex, conversation: Conversation, labels: string[], actor: Actor): Promise<Conversation> {
  const unique = [...new Set(labels.map((label) => label.trim()).filter(Boolean))];
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { labels: unique }, { actor }));
}

/** Replaces the custom attributes, or merges into them when `merge` is set; values are checked against the definitions. */
export async function setCustomAttributes(
  db: Knex,
  conversation: Conversation,
  attributes: Record<string, unknown>,
  { merge, actor }: { merge: boolean; actor: Actor },
): Promise<Conversation> {
  await validateCustomAttributes(db, conversation.account_id, "conversation_attribute", attributes);
  return inUnit(db, async (unit) => {
    const current = await Conversation.lock(unit.trx, conversation.id);
    const custom_attributes = merge ? { ...current.custom_attributes, ...attributes } : attributes;
    return changeConversation(unit, current.id, { custom_attributes }, { actor });
  });
}

export type Assignee = { kind: "user"; member: Member } | { kind: "agent_bot"; bot: AgentBot } | null;

/**
 * Conversations::AssignmentService: a user of the account (null unassigns), or an agent bot the
 * account may use; assigning one clears the other.
 */
export async function assignConversation(
  db: Knex,
  conversation: Conversation,
  target: { type: "User" | "AgentBot"; id: number | null },
  actor: Actor,
): Promise<Assignee> {
  let assignee: Assignee = null;
  if (target.id !== null && target.type === "User") {
    const accountUser = await AccountUser.membership(conversation.account_id, target.id);
    const user = accountUser && (await User.query(db).findById(target.id));
    if (!accountUser || !user) throw ValidationError.of("assignee", "must exist");
    assignee = { kind: "user", member: { user, accountUser } };
  } else if (target.id !== null) {
    const bot = await AgentBot.accessibleTo(conversation.account_id).findById(target.id);
    if (!bot) throw ValidationError.of("assignee", "must exist");
    assignee = { kind: "agent_bot", bot };
  }
  const patch: ConversationPatch = {
    assignee_id: assignee?.kind === "user" ? assignee.member.user.id : null,
    assignee_agent_bot_id: assignee?.kind === "agent_bot" ? assignee.bot.id : null,
  };
  await inUnit(db, (unit) => changeConversation(unit, conversation.id, patch, { actor }));
  return assignee;
}

/**
 * The assignments endpoint's and automation's team change (Conversation#update!(team:)): null
 * removes the team; the assigned agent stays only if they are a member of the new team.
 */
export async function setTeam(db: Knex, conversation: Conversation, team: Team | null, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { team_id: team?.id ?? null }, { actor }));
}
