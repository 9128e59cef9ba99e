import { ApiError, NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { Conversation } from "../../../models/Conversation";
import { Inbox } from "../../../models/Inbox";
import { Message } from "../../../models/Message";
import { conversationMessage } from "../../../presenters/conversation";
import { contactPushEventData } from "../../../presenters/contact";
import { userPushEventData, withEchoId } from "../../../presenters/message";
import { iso } from "../../../presenters/time";
import { MAX_ATTACHMENTS_PER_MESSAGE, withStagedAttachments } from "../../../services/attachments";
import { loadConversationGraph } from "../../../conversations/graph";
import { loadSenders } from "../../../conversations/messageSenders";
import { botSenderId, createMessage, deleteMessage, senderFor, submitMessageValues, updateMessageStatus } from "../../../conversations/messages";
import { actorOf, findConversation, usersOnly } from "../../../policies/conversations";
import { conversationMessagesParams, messageListResponse, messageParams, messageStatusBody, messagesQuery } from "./schema";
import { messageBody, messageResponse } from "../../../schemas/message";

/** Messages as push_event_data (message_type as its integer), with the conversation's current state. */
async function presentMessages(ctx: AppContext, conversation: Conversation, messages: Message[]) {
  const graph = await loadConversationGraph(ctx.deps.knex, conversation);
  const senders = await loadSenders(ctx.deps.knex, conversation.account_id, messages);
  return {
    graph,
    messages: messages.map((message) => conversationMessage(graph, { message, sender: senders.get(message.id) ?? null })),
  };
}

async function presentMessage(ctx: AppContext, message: Message) {
  const conversation = await Conversation.query().findById(message.conversation_id).throwIfNotFound();
  return (await presentMessages(ctx, conversation, [message])).messages[0];
}

async function findMessage(conversation: Conversation, id: number): Promise<Message> {
  const message = await Message.findInConversation(conversation.id, id);
  if (!message) throw NotFound();
  return message;
}

export function registerMessageRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/conversations/:conversation_id/messages";

  router.route(
    {
      method: "get",
      path,
      summary: "Messages of a conversation: the latest 20, 20 before `before`, up to 100 after `after`",
      params: conversationMessagesParams,
      query: messagesQuery,
      response: messageListResponse,
      middleware: [usersOnly],
    },
    async (ctx, { params, query }) => {
      const conversation = await findConversation(ctx, params.conversation_id);
      const { graph, messages } = await presentMessages(ctx, conversation, await Message.page(conversation.id, query));
      ctx.body = {
        meta: {
          labels: conversation.labels,
          additional_attributes: conversation.additional_attributes,
          contact: graph.contact ? contactPushEventData(graph.contact) : null,
          ...(graph.assignee ? { assignee: userPushEventData(graph.assignee.user, graph.assignee.accountUser.availability) } : {}),
          agent_last_seen_at: iso(conversation.agent_last_seen_at),
          assignee_last_seen_at: iso(conversation.assignee_last_seen_at),
        },
        payload: messages,
      };
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Create a message (or private note), with files as `attachments[]` of a multipart body",
      multipart: ({ maxUploadBytes }) => ({ maxFileBytes: maxUploadBytes, maxFiles: MAX_ATTACHMENTS_PER_MESSAGE }),
      params: conversationMessagesParams,
      body: messageBody,
      response: messageResponse,
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.conversation_id);
      const actor = actorOf(ctx);
      const sender = await senderFor(conversation, body.message_type, actor, botSenderId(body));
      const { attachments: files = [], ...input } = body;
      const channelTypeOf = async () => (await Inbox.query().findById(conversation.inbox_id).throwIfNotFound()).channel_type;
      const { graph, ...created } = await withStagedAttachments(ctx.deps.settings, conversation.account_id, channelTypeOf, files, (attachments) =>
        createMessage(ctx.deps.knex, conversation, { ...input, attachments }, sender, actor),
      );
      ctx.body = withEchoId(conversationMessage(graph, created), input.echo_id);
    },
  );

  router.route(
    {
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a message's delivery status (API inboxes), or record the contact's answers to a choice (submitted_values)",
      multipart: true,
      params: messageParams,
      body: messageStatusBody,
      response: messageResponse,
      middleware: [usersOnly],
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.conversation_id);
      if (body.status !== undefined) {
        const inbox = await Inbox.query().findById(conversation.inbox_id).throwIfNotFound();
        if (inbox.channel_type !== "Channel::Api") throw new ApiError(403, { error: "Message status update is only allowed for API inboxes" });
      }
      let message = await findMessage(conversation, params.id);
      if (body.submitted_values) message = await submitMessageValues(ctx.deps.knex, message, body.submitted_values);
      if (body.status !== undefined) message = await updateMessageStatus(ctx.deps.knex, message, body.status, body.external_error);
      ctx.body = await presentMessage(ctx, message);
    },
  );

  router.route(
    {
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a message (its content is replaced)",
      params: messageParams,
      response: messageResponse,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      const message = await findMessage(await findConversation(ctx, params.conversation_id), params.id);
      ctx.body = await presentMessage(ctx, await deleteMessage(ctx.deps.knex, message));
    },
  );
}
