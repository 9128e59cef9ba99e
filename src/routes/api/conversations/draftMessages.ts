import { z } from "zod";
import { clearDraft, readDraft, saveDraft } from "../../../conversations/drafts";
import { headOk } from "../../../http/headOk";
import { MAX_LENGTH } from "../../../http/limits";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { id, wrappedUnder } from "../../../http/schemas";
import { findConversation, userIdOf, usersOnly } from "../../../policies/conversations";

const params = z.object({ account_id: id(), conversation_id: id() });

/**
 * `draft_message{message}` (or bare): text, or a number taken as its digits; absent or null saves
 * an empty draft, as Chatwoot's `params.dig(:draft_message, :message) || ''`.
 */
const draftBody = z
  .preprocess(
    wrappedUnder("draft_message"),
    z.object({
      message: z
        .union([z.string().max(MAX_LENGTH.message), z.number().transform(String)])
        .nullable()
        .optional(),
    }),
  )
  .openapi("DraftMessageUpdate");

const draftResponse = z.object({ has_draft: z.boolean(), message: z.string().optional() }).openapi("DraftMessage");

/** conversations/:conversation_id/draft_messages (Chatwoot's singular resource): show, update, destroy; users who may see the conversation. */
export function registerDraftMessageRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/conversations/:conversation_id/draft_messages";

  router.route(
    {
      method: "get",
      path,
      summary: "The conversation's draft reply: `{has_draft:false}` or `{has_draft:true, message}`",
      params,
      response: draftResponse,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      const message = await readDraft(ctx.deps.knex, await findConversation(ctx, params.conversation_id));
      ctx.body = message === undefined ? { has_draft: false } : { has_draft: true, message };
    },
  );

  router.route(
    {
      method: UPDATE,
      path,
      summary: "Replace the conversation's draft reply (one per conversation, shared by its agents); 200 empty",
      params,
      body: draftBody,
      middleware: [usersOnly],
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.conversation_id);
      await saveDraft(ctx.deps.knex, conversation, body.message ?? "", userIdOf(ctx) || null);
      headOk(ctx);
    },
  );

  router.route(
    { method: "delete", path, summary: "Clear the conversation's draft reply; 200 empty", params, middleware: [usersOnly] },
    async (ctx, { params }) => {
      await clearDraft(ctx.deps.knex, await findConversation(ctx, params.conversation_id));
      headOk(ctx);
    },
  );
}
