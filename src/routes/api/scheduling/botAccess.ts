/**
 * What an agent bot may do in scheduling: read services, resources and availability, offer slots,
 * and book, move or cancel appointments only for the contact of a conversation in one of the
 * inboxes it is connected to, linked to that conversation. Every other scheduling route refuses bots
 * (SchedulingRouter), and every bot change is audited with the bot as the actor.
 */
import type { Knex } from "knex";
import { PermissionDenied } from "../../../errors";
import type { AppContext } from "../../../http/context";
import type { RouteMiddleware } from "../../../http/router";
import type { AgentBot } from "../../../models/AgentBot";
import { AgentBotInbox } from "../../../models/AgentBotInbox";
import { Conversation } from "../../../models/Conversation";
import { Appointment } from "../../../models/scheduling/Appointment";
import { findConversation } from "../../../policies/conversations";
import type { AppointmentInput } from "../../../scheduling/appointments";
import { appointmentNotFound, invalidAttribute, notFound } from "../../../scheduling/errors";
import { recordAudit } from "../../../services/audit";

/** Marks a scheduling route as open to agent bots; without it the route refuses them. */
export const openToBots: RouteMiddleware = (_ctx, next) => next();

export function botOf(ctx: AppContext): AgentBot | undefined {
  const principal = ctx.state.principal;
  return principal?.kind === "agent_bot" ? principal.bot : undefined;
}

async function servesInbox(bot: AgentBot, inboxId: number): Promise<boolean> {
  return Boolean(await AgentBotInbox.query().findOne({ agent_bot_id: bot.id, inbox_id: inboxId }));
}

/**
 * The conversation a scheduling request names: for a user, as the conversation routes decide; for a
 * bot, only a conversation of an inbox it is connected to (401 otherwise, 404 when there is none).
 */
export async function conversationFor(ctx: AppContext, displayId: number): Promise<Conversation> {
  const bot = botOf(ctx);
  if (!bot) return findConversation(ctx, displayId);
  const conversation = await Conversation.findByDisplayId(ctx.state.account!.id, displayId);
  if (!conversation) throw notFound("Conversation");
  if (!(await servesInbox(bot, conversation.inbox_id))) throw PermissionDenied();
  return conversation;
}

/** What a bot's booking may say: where and when, about whom, and notes; never money, staff fields or imports. */
const BOT_CREATE_KEYS = new Set<string>([
  "resource_id",
  "service_id",
  "conversation_id",
  "contact_id",
  "starts_at",
  "ends_at",
  "duration_min",
  "status",
  "appointment_type",
  "client_name",
  "client_phone",
  "client_identifier",
  "client_birth_date",
  "client_gender",
  "notes",
  "client_comment",
  "external_ref",
  "idempotency_key",
  "custom_attributes",
]);
/** What a bot's change may say: a move (time, resource, service), notes, or a cancellation. */
const BOT_CHANGE_KEYS = new Set<string>([
  "resource_id",
  "service_id",
  "conversation_id",
  "starts_at",
  "ends_at",
  "duration_min",
  "status",
  "notes",
  "client_comment",
]);

function refuseKeys(input: object, allowed: Set<string>): void {
  const given = Object.entries(input).filter(([, value]) => value !== undefined);
  if (given.some(([key]) => !allowed.has(key))) throw PermissionDenied();
}

/**
 * A bot's new booking: conversation_id is required and must be a conversation of its inboxes; the
 * contact is that conversation's (another contact is refused).
 */
export async function botBooking<T extends AppointmentInput>(ctx: AppContext, input: T): Promise<T> {
  refuseKeys(input, BOT_CREATE_KEYS);
  if (!input.conversation_id) throw invalidAttribute("conversation_id", "is required for an agent bot");
  if (input.status && !["scheduled", "confirmed"].includes(input.status)) throw PermissionDenied();
  const conversation = await conversationFor(ctx, input.conversation_id);
  if (!conversation.contact_id || (input.contact_id && input.contact_id !== conversation.contact_id)) throw PermissionDenied();
  return { ...input, contact_id: conversation.contact_id };
}

/**
 * A bot's change of a booking: it must be linked to a conversation of the bot's inboxes and be for
 * that conversation's contact, stay linked to it, and only move, annotate or cancel it.
 */
export async function botMayChange(ctx: AppContext, appointmentId: number, input: AppointmentInput): Promise<void> {
  refuseKeys(input, BOT_CHANGE_KEYS);
  if (input.status && input.status !== "cancelled") throw PermissionDenied();
  const appointment = await Appointment.ofAccount(ctx.state.account!.id).findById(appointmentId);
  if (!appointment) throw appointmentNotFound();
  if (!appointment.conversation_display_id) throw PermissionDenied();
  if (input.conversation_id !== undefined && input.conversation_id !== appointment.conversation_display_id) throw PermissionDenied();
  const conversation = await conversationFor(ctx, appointment.conversation_display_id);
  if (!conversation.contact_id || conversation.contact_id !== appointment.contact_id) throw PermissionDenied();
}

/** The audit log's row for a bot's scheduling change, the bot named as its actor. */
export async function auditBotAction(
  ctx: AppContext,
  db: Knex,
  entry: { type: string; id: number; action: "create" | "update"; changes: Record<string, unknown> },
): Promise<void> {
  const bot = botOf(ctx);
  if (!bot) return;
  await recordAudit(
    db,
    { userId: bot.id, userType: "AgentBot", username: bot.name, remoteAddress: ctx.ip || null, requestUuid: ctx.requestId },
    { accountId: ctx.state.account!.id, auditableType: entry.type, auditableId: entry.id, action: entry.action, changes: entry.changes },
  );
}

/** The booking's fields a bot's audit row records. */
const AUDITED_KEYS = ["resource_id", "service_id", "contact_id", "conversation_id", "starts_at", "ends_at", "status", "cancellation_reason"] as const;

/**
 * Runs a booking change; for a bot, in one transaction with its audit row (Scheduling::Appointment),
 * so the log has exactly the changes that committed.
 */
export async function auditedForBot<T>(
  ctx: AppContext,
  action: "create" | "update",
  work: (db: Knex) => Promise<T>,
  /** The booking to audit; none for a create replayed by its idempotency key. */
  appointmentOf: (result: T) => Appointment | undefined,
): Promise<T> {
  if (!botOf(ctx)) return work(ctx.deps.knex);
  return ctx.deps.knex.transaction(async (trx) => {
    const result = await work(trx);
    const appointment = appointmentOf(result);
    if (!appointment) return result;
    const shown = { ...appointment, conversation_id: appointment.conversation_display_id ?? null } as Record<string, unknown>;
    const changes = Object.fromEntries(
      AUDITED_KEYS.map((key) => [key, shown[key] instanceof Date ? (shown[key] as Date).toISOString() : (shown[key] ?? null)]),
    );
    await auditBotAction(ctx, trx, { type: "Scheduling::Appointment", id: appointment.id, action, changes });
    return result;
  });
}
