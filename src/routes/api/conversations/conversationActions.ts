import type { AppContext } from "../../../http/context";
import type { ApiRouter } from "../../../http/router";
import { headOk } from "../../../http/headOk";
import { accountResourceParams } from "../../../http/schemas";
import { Conversation } from "../../../models/Conversation";
import { iso } from "../../../presenters/time";
import { setPriority } from "../../../conversations/attributes";
import { muteConversation, toggleStatus, unmuteConversation } from "../../../conversations/status";
import { actorOf, findConversation, userIdOf, usersOnly } from "../../../policies/conversations";
import { recordRead, recordTyping, type Typist } from "../../../realtime/liveEvents";
import { presentOne } from "./present";
import { conversationResponse, togglePriorityBody, toggleStatusBody, toggleStatusResponse, typingBody } from "./schema";

/** The caller as typing events show them. */
function typistOf(ctx: AppContext): Typist | null {
  const principal = ctx.state.principal;
  if (principal?.kind === "agent_bot") return { kind: "agent_bot", bot: principal.bot };
  if (principal?.kind === "user") return { kind: "user", user: principal.user, availability: ctx.state.membership?.availability ?? "online" };
  return null;
}

/** What an agent does to one conversation: its status, priority, muting, typing and read marks. */
export function registerConversationActionRoutes(router: ApiRouter) {
  const one = "/accounts/:account_id/conversations/:id";

  router.route(
    {
      method: "post",
      path: `${one}/toggle_status`,
      summary: "Set or toggle the status",
      params: accountResourceParams,
      body: toggleStatusBody,
      response: toggleStatusResponse,
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      const result = await toggleStatus(ctx.deps.knex, conversation, { status: body.status, snoozedUntil: body.snoozed_until }, actorOf(ctx));
      ctx.body = {
        meta: {},
        payload: {
          success: result.success,
          conversation_id: result.conversation.display_id,
          current_status: result.conversation.status,
          snoozed_until: iso(result.conversation.snoozed_until),
        },
      };
    },
  );

  router.route(
    { method: "post", path: `${one}/toggle_priority`, summary: "Set or clear the priority", params: accountResourceParams, body: togglePriorityBody },
    async (ctx, { params, body }) => {
      await setPriority(ctx.deps.knex, await findConversation(ctx, params.id), body.priority, actorOf(ctx));
      headOk(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/toggle_typing_status`,
      summary: "Typing indicator: conversation.typing_on/off to the conversation's live subscribers",
      params: accountResourceParams,
      body: typingBody,
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      const typist = typistOf(ctx);
      if (typist) await recordTyping(ctx.deps.knex, conversation, typist, body.typing_status, body.is_private ?? false);
      headOk(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/mute`,
      summary: "Mute: resolve, and later contact messages no longer reopen it",
      params: accountResourceParams,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      await muteConversation(ctx.deps.knex, await findConversation(ctx, params.id), actorOf(ctx));
      headOk(ctx);
    },
  );

  router.route(
    { method: "post", path: `${one}/unmute`, summary: "Unmute: contact messages reopen it again", params: accountResourceParams, middleware: [usersOnly] },
    async (ctx, { params }) => {
      await unmuteConversation(ctx.deps.knex, await findConversation(ctx, params.id), actorOf(ctx));
      headOk(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/unread`,
      summary: "Mark the latest incoming message unread",
      params: accountResourceParams,
      status: 204,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      const conversation = await findConversation(ctx, params.id);
      await Conversation.markUnread(ctx.deps.knex, conversation.id);
      // The action renders no view, which Rails answers with 204.
      ctx.status = 204;
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/update_last_seen`,
      summary: "Mark the conversation read by the caller",
      params: accountResourceParams,
      response: conversationResponse,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      const conversation = await findConversation(ctx, params.id);
      const seen = await Conversation.markSeen(ctx.deps.knex, conversation.id, { byAssignee: conversation.assignee_id === userIdOf(ctx) });
      await recordRead(ctx.deps.knex, seen);
      ctx.body = await presentOne(ctx, seen);
    },
  );
}
