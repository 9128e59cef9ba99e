import { z } from "zod";
import type { ApiRouter } from "../../../http/router";
import { accountResourceParams, pageQuery } from "../../../http/schemas";
import { Attachment } from "../../../models/Attachment";
import { Message } from "../../../models/Message";
import { senderPushEventData } from "../../../presenters/message";
import { unixSeconds } from "../../../presenters/time";
import { attachmentPushEventData } from "../../../services/attachments";
import { loadSenders } from "../../../conversations/messageSenders";
import { fileUrlSigner } from "../../../storage/urls";
import { findConversation, usersOnly } from "../../../policies/conversations";

/** ConversationsController::ATTACHMENT_RESULTS_PER_PAGE. */
const PER_PAGE = 100;

const conversationAttachments = z
  .object({
    meta: z.object({ total_count: z.number().int() }),
    payload: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi("ConversationAttachments");

/**
 * ConversationsController#attachments: the files of the conversation's messages, newest first, 100 a
 * page, each as its push data with the message's time and sender.
 */
export function registerConversationAttachmentRoutes(router: ApiRouter) {
  router.route(
    {
      method: "get",
      path: "/accounts/:account_id/conversations/:id/attachments",
      summary: "The files shared in the conversation, newest first",
      params: accountResourceParams,
      query: pageQuery,
      response: conversationAttachments,
      middleware: [usersOnly],
    },
    async (ctx, { params, query }) => {
      const conversation = await findConversation(ctx, params.id);
      const ofConversation = () =>
        Attachment.query()
          .where("attachments.account_id", conversation.account_id)
          .whereIn("message_id", Message.query().select("id").where("conversation_id", conversation.id));
      const [total, attachments] = await Promise.all([
        ofConversation().resultSize(),
        ofConversation()
          .orderBy("id", "desc")
          .limit(PER_PAGE)
          .offset((query.page - 1) * PER_PAGE),
      ]);
      const messages = attachments.length ? await Message.query().findByIds([...new Set(attachments.map((a) => a.message_id))]) : [];
      const [signer, senders] = await Promise.all([fileUrlSigner(ctx.deps.knex), loadSenders(ctx.deps.knex, conversation.account_id, messages)]);
      const messageById = new Map(messages.map((message) => [message.id, message]));
      ctx.body = {
        meta: { total_count: total },
        payload: attachments.map((attachment) => {
          const sender = senders.get(attachment.message_id);
          return {
            ...attachmentPushEventData(attachment, signer),
            created_at: unixSeconds(messageById.get(attachment.message_id)!.created_at),
            ...(sender ? { sender: senderPushEventData(sender) } : {}),
          };
        }),
      };
    },
  );
}
