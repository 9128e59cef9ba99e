import type { Knex } from "knex";
import { NotFound } from "../errors";
import { ContactInbox } from "../models/ContactInbox";
import { Conversation } from "../models/Conversation";
import type { MessageInput } from "../conversations/messageInput";
import { createMessage, type PostedMessage } from "../conversations/messages";
import { createConversation } from "../conversations/newConversation";
import type { Visitor, WebWidgetScope } from "./widget";
import { browserInfo, browserLanguage } from "./widgetBrowser";

/**
 * Api::V1::Widget::BaseController#conversations: the visitor's conversations in this widget's
 * inbox; a verified visitor (set_user with a valid identifier_hash) reaches those of every verified
 * contact inbox of its contact there, so a signed-in customer sees their chats on any device.
 */
export function visitorConversations(db: Knex, { inbox }: WebWidgetScope, { contactInbox }: Visitor) {
  const query = Conversation.query(db).where({ inbox_id: inbox.id, account_id: inbox.account_id });
  if (!contactInbox.hmac_verified) return query.where("contact_inbox_id", contactInbox.id);
  const verified = ContactInbox.query(db).select("id").where({ inbox_id: inbox.id, contact_id: contactInbox.contact_id, hmac_verified: true });
  return query.where("contact_id", contactInbox.contact_id).whereIn("contact_inbox_id", verified);
}

/** "The conversation" of every widget endpoint: the visitor's newest. */
export async function currentConversation(db: Knex, scope: WebWidgetScope, visitor: Visitor): Promise<Conversation | undefined> {
  return visitorConversations(db, scope, visitor).orderBy("id", "desc").first();
}

/** Endpoints that act on the conversation answer 404 while there is none (render_not_found_if_empty). */
export async function requireConversation(db: Knex, scope: WebWidgetScope, visitor: Visitor): Promise<Conversation> {
  const conversation = await currentConversation(db, scope, visitor);
  if (!conversation) throw NotFound();
  return conversation;
}

/** What the widget tells about where and when the visitor started (conversation additional_attributes). */
export interface VisitorContext {
  additionalAttributes: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
}

/** What the request and the widget's message say about the visitor's browser and page. */
export interface VisitorRequest {
  userAgent?: string;
  acceptLanguage?: string;
  refererUrl?: string | null;
  timestamp?: string | null;
}

/**
 * A new conversation's additional_attributes as Chatwoot's widget controllers fill them: the
 * browser from the request, the page and the visitor's clock from the message.
 */
export function visitorContext(request: VisitorRequest, customAttributes?: Record<string, unknown>): VisitorContext {
  return {
    additionalAttributes: {
      browser_language: browserLanguage(request.acceptLanguage),
      browser: browserInfo(request.userAgent),
      initiated_at: { timestamp: request.timestamp ?? null },
      referer: request.refererUrl ?? null,
    },
    customAttributes,
  };
}

/** POST /conversations: always a new conversation, with the visitor's first message in it. */
export async function startVisitorConversation(db: Knex, scope: WebWidgetScope, visitor: Visitor, context: VisitorContext, message: MessageInput) {
  return createConversation(
    db,
    {
      accountId: scope.account.id,
      inbox: scope.inbox,
      contactInbox: visitor.contactInbox,
      additionalAttributes: context.additionalAttributes,
      customAttributes: context.customAttributes,
      message: { input: { ...message, message_type: "incoming" }, sender: { type: "Contact", id: visitor.contact.id } },
    },
    null,
  );
}

/**
 * POST /messages: the visitor's message in their conversation, which the first message opens. The
 * contact inbox row is locked first, so messages sent at once before any conversation exists all
 * land in the one conversation the first of them opened.
 */
export async function postVisitorMessage(
  db: Knex,
  scope: WebWidgetScope,
  visitor: Visitor,
  context: VisitorContext,
  message: MessageInput,
): Promise<PostedMessage> {
  return db.transaction(async (trx) => {
    await trx("contact_inboxes").where("id", visitor.contactInbox.id).forUpdate().first("id");
    const conversation =
      (await currentConversation(trx, scope, visitor)) ??
      (await createConversation(
        trx,
        { accountId: scope.account.id, inbox: scope.inbox, contactInbox: visitor.contactInbox, additionalAttributes: context.additionalAttributes },
        null,
      ));
    return createMessage(trx, conversation, { ...message, message_type: "incoming" }, { type: "Contact", id: visitor.contact.id }, null);
  });
}
