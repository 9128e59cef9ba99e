import { NotFound } from "../../../errors";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { Message } from "../../../models/Message";
import { conversationMessage } from "../../../presenters/conversation";
import { withEchoId } from "../../../presenters/message";
import { MAX_ATTACHMENTS_PER_MESSAGE, withStagedAttachments } from "../../../services/attachments";
import { submitMessageValues } from "../../../conversations/messages";
import { presentPublicMessages } from "../../../services/publicApi";
import { identifyVisitor } from "../../../services/widgetContact";
import { currentConversation, postVisitorMessage, visitorConversations, visitorContext } from "../../../services/widgetConversations";
import { websiteTokenQuery } from "../../../schemas/widget";
import { browserOf, requireVisitor } from "../../../middlewares/widgetSession";
import { widgetMessageCreate, widgetMessageParams, widgetMessageResponse, widgetMessagesQuery, widgetMessageUpdate } from "./schema";

export function registerWidgetMessageRoutes(router: ApiRouter) {
  const path = "/messages";

  router.route(
    {
      method: "get",
      path,
      summary: "The current conversation's messages without private notes and activities: the latest 20, or 20 before/after a message id",
      query: widgetMessagesQuery,
      response: widgetMessageResponse.array(),
      middleware: [requireVisitor],
    },
    async (ctx, { query }) => {
      const db = ctx.deps.knex;
      const conversation = await currentConversation(db, ctx.state.webWidget!, ctx.state.visitor!);
      ctx.body = conversation
        ? await presentPublicMessages(
            db,
            conversation,
            await Message.page(conversation.id, { before: query.before, after: query.after }, db, Message.publicOnly),
          )
        : [];
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "The visitor writes (the first message opens a conversation), with files as `message[attachments][]` of a multipart body",
      multipart: ({ maxUploadBytes }) => ({ maxFileBytes: maxUploadBytes, maxFiles: MAX_ATTACHMENTS_PER_MESSAGE }),
      query: websiteTokenQuery,
      body: widgetMessageCreate,
      response: widgetMessageResponse,
      middleware: [requireVisitor],
    },
    async (ctx, { body }) => {
      const scope = ctx.state.webWidget!;
      const { content, echo_id, referer_url, timestamp, attachments = [] } = body.message;
      const context = visitorContext({ ...browserOf(ctx), refererUrl: referer_url, timestamp });
      const posted = await withStagedAttachments(
        ctx.deps.settings,
        scope.account.id,
        () => scope.inbox.channel_type,
        attachments,
        (staged) => postVisitorMessage(ctx.deps.knex, scope, ctx.state.visitor!, context, { content, echo_id, attachments: staged }),
      );
      ctx.body = withEchoId(conversationMessage(posted.graph, posted), echo_id);
    },
  );

  router.route(
    {
      method: UPDATE,
      path: `${path}/:id`,
      summary: "The visitor answers a form, choice or email request of one of their conversations' messages",
      params: widgetMessageParams,
      query: websiteTokenQuery,
      body: widgetMessageUpdate,
      response: widgetMessageResponse,
      middleware: [requireVisitor],
    },
    async (ctx, { params, body }) => {
      const db = ctx.deps.knex;
      const scope = ctx.state.webWidget!;
      const conversation = await visitorConversations(db, scope, ctx.state.visitor!)
        .whereExists(Message.query(db).where("id", params.id).whereColumn("messages.conversation_id", "conversations.id"))
        .first();
      const message = conversation && (await Message.findInConversation(conversation.id, params.id, db));
      if (!conversation || !message) throw NotFound();
      const email = body.contact?.email;
      if (email && message.content_type === "input_email") {
        await identifyVisitor(db, scope.account, ctx.state.visitor!.contact, { email });
      }
      const answers = body.message.submitted_values ?? (email ? [{ name: "email", value: email }] : undefined);
      const updated = answers ? await submitMessageValues(db, message, answers) : message;
      ctx.body = (await presentPublicMessages(db, conversation, [updated]))[0];
    },
  );
}
