import type { Next } from "koa";
import { BotEndpointDenied, NotFound, PermissionDenied } from "../errors";
import type { AppContext } from "../http/context";
import { Conversation } from "../models/Conversation";
import { accessibleInboxIdsSql, canSeeInbox } from "./inboxes";
import type { Actor } from "../conversations/activityMessages";
import type { Viewer } from "../conversations/list";

/** Endpoints outside Chatwoot's BOT_ACCESSIBLE_ENDPOINTS refuse agent bot tokens. */
export async function usersOnly(ctx: AppContext, next: Next) {
  if (ctx.state.principal?.kind === "agent_bot") throw BotEndpointDenied();
  await next();
}

/** A user's id for "mine" counts; bots never reach the list endpoints. */
export const userIdOf = (ctx: AppContext) => ctx.state.membership?.user_id ?? 0;

/** The caller as the conversation lists see them. */
export function viewerOf(ctx: AppContext): Viewer {
  const { id, name } = ctx.state.account!;
  return { account: { id, name }, userId: userIdOf(ctx), inboxIds: accessibleInboxIdsSql(ctx) };
}

/** The caller as activity messages name it. */
export function actorOf(ctx: AppContext): Actor {
  const principal = ctx.state.principal;
  if (principal?.kind === "user") return { kind: "user", user: principal.user };
  if (principal?.kind === "agent_bot") return { kind: "agent_bot", bot: principal.bot };
  return null;
}

/**
 * The conversation with this display id in the account: 404 when there is none, 401 when an agent
 * is not a member of its inbox (ConversationPolicy#show?); administrators and bots see all.
 */
export async function findConversation(ctx: AppContext, displayId: number): Promise<Conversation> {
  return visibleTo(ctx, await Conversation.findByDisplayId(ctx.state.account!.id, displayId));
}

/** The conversation when the caller may see it, as findConversation answers otherwise. */
export async function visibleTo(ctx: AppContext, conversation: Conversation | undefined): Promise<Conversation> {
  if (!conversation) throw NotFound();
  // The inbox is there (conversations.inbox_id is a foreign key): only an agent's membership needs a query.
  if (!(await canSeeInbox(ctx, { id: conversation.inbox_id }))) throw PermissionDenied();
  return conversation;
}

/**
 * Of the account's conversations with these display ids, those the caller may see (Chatwoot's
 * Conversations::PermissionFilterService), in display id order; unknown and unseen ids drop out.
 */
export async function visibleConversationsByDisplayId(ctx: AppContext, displayIds: number[]): Promise<{ id: number; display_id: number }[]> {
  if (!displayIds.length) return [];
  const query = Conversation.query()
    .where("account_id", ctx.state.account!.id)
    .whereIn("display_id", [...new Set(displayIds)])
    .orderBy("display_id")
    .select("id", "display_id");
  const inboxIds = accessibleInboxIdsSql(ctx);
  if (inboxIds) query.whereRaw(`inbox_id in (${inboxIds.text})`, inboxIds.values as number[]);
  const rows = await query;
  return rows.map((row) => ({ id: Number(row.id), display_id: row.display_id }));
}
