import type { Knex } from "knex";
import { NotFound } from "../../errors";
import type { AppContext } from "../../http/context";
import { type ApiRouter, UPDATE } from "../../http/router";
import type { Conversation } from "../../models/Conversation";
import { Message } from "../../models/Message";
import { withEchoId } from "../../presenters/message";
import { publicMessage } from "../../presenters/publicApi";
import { MAX_ATTACHMENTS_PER_MESSAGE, withStagedAttachments } from "../../services/attachments";
import { loadSenders } from "../../conversations/messageSenders";
import { createMessage, submitMessageValues } from "../../conversations/messages";
import { findPublicContactInbox, findPublicConversation } from "../../services/publicApi";
import { conversationParams, messageParams, publicMessageCreate, publicMessageResponse, publicMessagesQuery, publicMessageUpdate } from "./schema";

async function presentMessages(db: Knex, conversation: Conversation, messages: Message[]) {
  const senders = await loadSenders(db, conversation.account_id, messages);
  return messages.map((message) => publicMessage(message, conversation, senders.get(message.id) ?? null));
}

/** The contact inbox of the path and its conversation; messages are reached only through them. */
async function scope(ctx: AppContext, params: { contact_identifier: string; conversation_id: number }) {
  const contactInbox = await findPublicContactInbox(ctx.deps.knex, ctx.state.apiInbox!, params.contact_identifier);
  return { contactInbox, conversation: await findPublicConversation(ctx.deps.knex, contactInbox, params.conversation_id) };
}

export function registerPublicMessageRoutes(router: ApiRouter) {
  const path = "/contacts/:contact_identifier/conversations/:conversation_id/messages";

  router.route(
    {
      method: "get",
      path,
      summary: "The conversation's messages without private notes and activities: the latest 20, or 20 before `before`",
      params: conversationParams,
      query: publicMessagesQuery,
      response: publicMessageResponse.array(),
    },
    async (ctx, { params, query }) => {
      const { conversation } = await scope(ctx, params);
      ctx.body = await presentMessages(
        ctx.deps.knex,
        conversation,
        await Message.page(conversation.id, { before: query.before }, ctx.deps.knex, Message.publicOnly),
      );
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "The contact writes a message (incoming), with files as `attachments[]` of a multipart body",
      multipart: ({ maxUploadBytes }) => ({ maxFileBytes: maxUploadBytes, maxFiles: MAX_ATTACHMENTS_PER_MESSAGE }),
      params: conversationParams,
      body: publicMessageCreate,
      response: publicMessageResponse,
    },
    async (ctx, { params, body }) => {
      const { contactInbox, conversation } = await scope(ctx, params);
      const sender = { type: "Contact" as const, id: contactInbox.contact_id };
      const {
        message,
        sender: loaded,
        graph,
      } = await withStagedAttachments(
        ctx.deps.settings,
        conversation.account_id,
        () => ctx.state.apiInbox!.inbox.channel_type,
        body.attachments ?? [],
        (attachments) =>
          createMessage(ctx.deps.knex, conversation, { content: body.content, echo_id: body.echo_id, message_type: "incoming", attachments }, sender, null),
      );
      ctx.body = withEchoId(publicMessage(message, graph.conversation, loaded, graph.inbox), body.echo_id);
    },
  );

  router.route(
    {
      method: UPDATE,
      path: `${path}/:message_id`,
      summary: "Submit the contact's answers to a form or choice message",
      multipart: true,
      params: messageParams,
      body: publicMessageUpdate,
      response: publicMessageResponse,
    },
    async (ctx, { params, body }) => {
      const { conversation } = await scope(ctx, params);
      const message = await Message.findInConversation(conversation.id, params.message_id, ctx.deps.knex);
      if (!message) throw NotFound();
      const updated = body.submitted_values ? await submitMessageValues(ctx.deps.knex, message, body.submitted_values) : message;
      ctx.body = (await presentMessages(ctx.deps.knex, conversation, [updated]))[0];
    },
  );
}
