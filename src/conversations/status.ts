/* Status changes (toggle, resolve, open, mute), each its own unit of work over changeConversation. */
import type { Knex } from "knex";
import { Conversation, type ConversationStatus } from "../models/Conversation";
import type { Actor } from "./activityMessages";
import { changeConversation, type ConversationPatch } from "./changes";
import { inUnit, type Unit } from "./unit";

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

type StatusOptions = { activityContent?: string };

/** Moves the conversation to `status` inside the caller's unit of work; activityContent replaces the actor's activity text. */
export function changeStatusIn(
  unit: Unit,
  conversationId: number,
  status: "open" | "resolved",
  actor: Actor,
  options: StatusOptions = {},
): Promise<Conversation> {
  return changeConversation(
    unit,
    conversationId,
    { status },
    { actor, ...(options.activityContent !== undefined ? { statusActivity: options.activityContent } : {}) },
  );
}

/**
 * Resolves the conversation, for callers outside HTTP too: activityContent replaces the actor's
 * activity text, e.g. contactResolvedActivity for a contact.
 */
export async function resolveConversation(db: Knex, conversation: Conversation, actor: Actor, options: StatusOptions = {}): Promise<Conversation> {
  return inUnit(db, (unit) => changeStatusIn(unit, conversation.id, "resolved", actor, options));
}

/** Opens the conversation with a fixed activity text (an agent bot fails). */
export async function openConversation(db: Knex, conversation: Conversation, actor: Actor, options: StatusOptions = {}): Promise<Conversation> {
  return inUnit(db, (unit) => changeStatusIn(unit, conversation.id, "open", actor, options));
}

/** Conversation#mute!: resolved, and later contact messages no longer reopen it. */
export async function muteConversation(db: Knex, conversation: Conversation, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { status: "resolved", muted: true }, { actor }));
}

/** Conversation#unmute!: contact messages reopen it again. */
export async function unmuteConversation(db: Knex, conversation: Conversation, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { muted: false }, { actor }));
}
