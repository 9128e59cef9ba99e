import type { AppContext } from "../../../http/context";
import { ApiError } from "../../../errors";
import { headOk } from "../../../http/headOk";
import type { ApiRouter } from "../../../http/router";
import { ContactInbox } from "../../../models/ContactInbox";
import type { Conversation } from "../../../models/Conversation";
import { Message } from "../../../models/Message";
import { unixSeconds } from "../../../presenters/time";
import { recordTyping } from "../../../realtime/liveEvents";
import { setCustomAttributes } from "../../../conversations/attributes";
import { resolveConversation } from "../../../conversations/status";
import { contactResolvedActivity, markSeenByContact, presentPublicMessages } from "../../../services/publicApi";
import { identifyVisitor } from "../../../services/widgetContact";
import { currentConversation, requireConversation, startVisitorConversation, visitorContext } from "../../../services/widgetConversations";
import { websiteTokenQuery } from "../../../schemas/widget";
import { browserOf, requireVisitor } from "../../../middlewares/widgetSession";
import { widgetConversationAttributesBody, widgetConversationCreate, widgetConversationCreated, widgetConversationResponse, widgetTypingBody } from "./schema";

const summary = (conversation: Conversation) => ({
  id: conversation.display_id,
  inbox_id: conversation.inbox_id,
  contact_last_seen_at: unixSeconds(conversation.contact_last_seen_at) ?? 0,
  status: conversation.status,
});

const theConversation = (ctx: AppContext) => requireConversation(ctx.deps.knex, ctx.state.webWidget!, ctx.state.visitor!);

/** Chatwoot answers the end-conversation button with 403 unless the widget offers it. */
const EndConversationDisabled = () => new ApiError(403, { error: "Ending the conversation is not enabled for this widget" });

export function registerWidgetConversationRoutes(router: ApiRouter) {
  const path = "/conversations";
  const common = { query: websiteTokenQuery, middleware: [requireVisitor] };

  router.route(
    { ...common, method: "get", path, summary: "The visitor's current conversation, or {} before their first message", response: widgetConversationResponse },
    async (ctx) => {
      const conversation = await currentConversation(ctx.deps.knex, ctx.state.webWidget!, ctx.state.visitor!);
      ctx.body = conversation ? summary(conversation) : {};
    },
  );

  router.route(
    {
      ...common,
      method: "post",
      path,
      summary: "Start a new conversation with the visitor's first message (the pre-chat form's contact details update the visitor)",
      body: widgetConversationCreate,
      response: widgetConversationCreated,
    },
    async (ctx, { body }) => {
      const db = ctx.deps.knex;
      const scope = ctx.state.webWidget!;
      let visitor = ctx.state.visitor!;
      if (body.contact) {
        const { name, ...details } = body.contact;
        // retain_original_contact_name: a visitor already known by email, phone or identifier keeps their name.
        const known = visitor.contact.email || visitor.contact.phone_number || visitor.contact.identifier;
        const contact = await identifyVisitor(db, scope.account, visitor.contact, { ...details, ...(known ? {} : { name }) });
        visitor = { contact, contactInbox: await ContactInbox.query(db).findById(visitor.contactInbox.id).throwIfNotFound() };
      }
      const { referer_url, timestamp, ...message } = body.message;
      const conversation = await startVisitorConversation(
        db,
        scope,
        visitor,
        visitorContext({ ...browserOf(ctx), refererUrl: referer_url, timestamp }, body.custom_attributes),
        message,
      );
      const messages = await Message.query(db).where("conversation_id", conversation.id).modify(Message.publicOnly).orderBy("id");
      const { contact } = visitor;
      ctx.body = {
        ...summary(conversation),
        messages: await presentPublicMessages(db, conversation, messages),
        custom_attributes: conversation.custom_attributes,
        contact: { id: contact.id, name: contact.name, email: contact.email, phone_number: contact.phone_number },
      };
    },
  );

  router.route(
    { ...common, method: "post", path: `${path}/toggle_typing`, summary: "The visitor types (typing_status on) or stops (off)", body: widgetTypingBody },
    async (ctx, { body }) => {
      await recordTyping(ctx.deps.knex, await theConversation(ctx), { kind: "contact" }, body.typing_status);
      headOk(ctx);
    },
  );

  router.route(
    { ...common, method: "post", path: `${path}/update_last_seen`, summary: "The visitor has read the conversation: agent messages so far read as read" },
    async (ctx) => {
      const conversation = await currentConversation(ctx.deps.knex, ctx.state.webWidget!, ctx.state.visitor!);
      if (conversation) await markSeenByContact(ctx.deps.knex, conversation);
      headOk(ctx);
    },
  );

  router.route(
    {
      ...common,
      method: ["get", "post"],
      path: `${path}/toggle_status`,
      summary: "The visitor ends the conversation (resolves it) where the widget offers end_conversation",
    },
    async (ctx) => {
      const { channel } = ctx.state.webWidget!;
      if (!channel.selected_feature_flags.includes("end_conversation")) throw EndConversationDisabled();
      const conversation = await theConversation(ctx);
      if (conversation.status !== "resolved") {
        await resolveConversation(ctx.deps.knex, conversation, null, { activityContent: contactResolvedActivity(ctx.state.visitor!.contact.name) });
      }
      headOk(ctx);
    },
  );

  router.route(
    {
      ...common,
      method: "post",
      path: `${path}/set_custom_attributes`,
      summary: "Merge custom attributes into the visitor's conversation",
      body: widgetConversationAttributesBody,
      response: widgetConversationResponse,
    },
    async (ctx, { body }) => {
      const conversation = await setCustomAttributes(ctx.deps.knex, await theConversation(ctx), body.custom_attributes, { merge: true, actor: null });
      ctx.body = summary(conversation);
    },
  );
}
