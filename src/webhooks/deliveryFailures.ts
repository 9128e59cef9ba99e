import type { Knex } from "knex";
import { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { Message } from "../models/Message";
import type { WebhookDelivery } from "../models/WebhookDelivery";
import { BOT_ERROR_REOPENED_ACTIVITY } from "../conversations/activityMessages";
import { openConversation } from "../conversations/status";
import { updateMessageStatus } from "../conversations/messages";

const MESSAGE_EVENTS = new Set(["message_created", "message_updated"]);

/**
 * What a finally failed delivery does beyond the log, as Chatwoot does for message events:
 * - to an API inbox (its message transport): the message is marked failed with the error, which
 *   emits message_updated;
 * - to an agent bot: a conversation left pending for the bot opens, with the activity message that
 *   says why (unless the account keeps such conversations pending).
 */
export async function onDeliveryFailed(db: Knex, delivery: WebhookDelivery): Promise<void> {
  if (!MESSAGE_EVENTS.has(delivery.event_name)) return;
  const event = await db("events").where("id", delivery.event_id).first("payload", "conversation_id");
  const messageId = Number(event?.payload?.id);
  if (delivery.target_type === "api_inbox" && messageId) {
    const message = await Message.query(db).findOne({ id: messageId, account_id: delivery.account_id });
    if (message) await updateMessageStatus(db, message, "failed", delivery.last_error ?? "Delivery failed");
  }
  if (delivery.target_type === "agent_bot" && event?.conversation_id) {
    const conversation = await Conversation.query(db).findOne({ id: event.conversation_id, account_id: delivery.account_id });
    const account = await Account.findLive(delivery.account_id, db);
    if (conversation?.status === "pending" && account && !account.settings.keep_pending_on_bot_failure) {
      await openConversation(db, conversation, null, { activityContent: BOT_ERROR_REOPENED_ACTIVITY });
    }
  }
}
