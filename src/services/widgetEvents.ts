import type { Knex } from "knex";
import { Conversation } from "../models/Conversation";
import { contactWebhookData } from "../presenters/contact";
import { conversationWebhookData } from "../presenters/conversation";
import { loadConversationGraph } from "../conversations/graph";
import { recordEvent } from "../events/outbox";
import type { Visitor, WebWidgetScope } from "./widget";

/**
 * The event names the widget posts are Chatwoot's dotted dispatcher names; Chatwoot's listeners act
 * on webwidget.triggered (recorded for webhooks and bots) and campaign.triggered (src/campaigns/widget.ts).
 */
export function widgetEventName(name: string | undefined): "webwidget_triggered" | "campaign_triggered" | undefined {
  const normalised = name?.replace(/\./g, "_");
  return normalised === "webwidget_triggered" || normalised === "campaign_triggered" ? normalised : undefined;
}

/** ContactInbox#webhook_data (docs/events-and-webhooks.md), read in the caller's transaction. */
async function contactInboxWebhookData(trx: Knex.Transaction, { account, inbox }: WebWidgetScope, { contactInbox, contact }: Visitor) {
  // ContactInbox#current_conversation is the contact inbox's newest conversation.
  const current = await Conversation.query(trx).where("contact_inbox_id", contactInbox.id).orderBy("id", "desc").first();
  return {
    id: contactInbox.id,
    contact: contactWebhookData(contact, account),
    inbox: { id: inbox.id, name: inbox.name },
    account: { id: account.id, name: account.name },
    current_conversation: current ? conversationWebhookData(await loadConversationGraph(trx, current)) : null,
    source_id: contactInbox.source_id,
  };
}

/** Records webwidget_triggered for the inbox's webhooks and bot (Chatwoot's WebhookListener and AgentBotListener). */
export async function recordWebwidgetTriggered(db: Knex, scope: WebWidgetScope, visitor: Visitor, eventInfo: Record<string, unknown>): Promise<void> {
  await db.transaction(async (trx) => {
    await recordEvent(trx, {
      accountId: scope.account.id,
      name: "webwidget_triggered",
      payload: { ...(await contactInboxWebhookData(trx, scope, visitor)), event: "webwidget_triggered", event_info: eventInfo },
      inboxId: scope.inbox.id,
    });
  });
}
