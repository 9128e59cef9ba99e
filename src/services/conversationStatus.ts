/* Status changes (toggle, resolve, open, mute), each its own unit of work over changeConversation. */
import type { Knex } from "knex";
import { Conversation, type ConversationStatus } from "../models/Conversation";
import type { Actor } from "./activityMessages";
import { changeConversation, type ConversationPatch } from "./conversationChanges";
import { inUnit } from "./conversationUnit";

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
