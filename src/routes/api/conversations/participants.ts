import { z } from "zod";
import { ValidationError } from "../../../errors";
import { headOk } from "../../../http/headOk";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountResourceParams, idList } from "../../../http/schemas";
import type { Conversation } from "../../../models/Conversation";
import { ConversationParticipant } from "../../../models/ConversationParticipant";
import { loadMembers } from "../../../models/InboxMember";
import { presentInboxMember } from "../../../presenters/inbox";
import { findConversation, usersOnly } from "../../../policies/conversations";
import { inboxMembersEnvelope } from "../../../schemas/agent";

const participantsBody = z.object({ user_ids: idList() }).openapi("ConversationParticipantsRequest");
const participantsResponse = inboxMembersEnvelope.shape.payload.openapi("ConversationParticipants");

/** ConversationParticipant#ensure_inbox_access, in the RecordInvalid shape. */
async function assertInboxAccess(conversation: Conversation, userIds: number[]) {
  const refused = await ConversationParticipant.withoutInboxAccess(conversation.account_id, conversation.inbox_id, userIds);
  if (refused.length) throw ValidationError.of("user", "must have inbox access");
}

async function present(conversation: Conversation) {
  return (await ConversationParticipant.membersOf(conversation.account_id, conversation.id)).map(presentInboxMember);
}

/** Conversations::ParticipantsController: the agents following a conversation; anyone who may see it manages them. */
export function registerConversationParticipantRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/conversations/:id/participants";
  const common = { path, params: accountResourceParams, middleware: [usersOnly] };

  router.route({ ...common, method: "get", summary: "List the conversation's participants", response: participantsResponse }, async (ctx, { params }) => {
    ctx.body = await present(await findConversation(ctx, params.id));
  });

  router.route(
    { ...common, method: "post", summary: "Add participants; answers the agents added", body: participantsBody, response: participantsResponse },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      await assertInboxAccess(conversation, body.user_ids);
      const added = new Set(
        await ConversationParticipant.transaction((trx) => ConversationParticipant.add(trx, conversation.account_id, conversation.id, body.user_ids)),
      );
      const inOrder = [...new Set(body.user_ids)].filter((userId) => added.has(userId));
      ctx.body = (await loadMembers(conversation.account_id, inOrder)).map(presentInboxMember);
    },
  );

  router.route(
    { ...common, method: UPDATE, summary: "Make the participants exactly user_ids; answers them", body: participantsBody, response: participantsResponse },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      await assertInboxAccess(conversation, body.user_ids);
      await ConversationParticipant.transaction(async (trx) => {
        await ConversationParticipant.add(trx, conversation.account_id, conversation.id, body.user_ids);
        await ConversationParticipant.removeOthers(trx, conversation.id, body.user_ids);
      });
      ctx.body = await present(conversation);
    },
  );

  router.route({ ...common, method: "delete", summary: "Remove participants", body: participantsBody }, async (ctx, { params, body }) => {
    const conversation = await findConversation(ctx, params.id);
    await ConversationParticipant.transaction((trx) => ConversationParticipant.remove(trx, conversation.id, body.user_ids));
    headOk(ctx);
  });
}
