import type { Knex } from "knex";
import { Campaign } from "../models/Campaign";
import { Conversation } from "../models/Conversation";
import { User } from "../models/User";
import { avatarUrlOf } from "../services/avatars";
import type { Visitor, WebWidgetScope } from "../services/widget";
import { openCampaignConversation } from "./conversation";

/** api/v1/widget/campaigns/index: what the widget needs to time and show an ongoing campaign. */
export interface WidgetCampaign {
  id: number;
  trigger_rules: Record<string, unknown>;
  trigger_only_during_business_hours: boolean;
  message: string;
  sender: { name: string; avatar_url: string } | null;
}

/** The campaigns a website inbox runs for its visitors: enabled and ongoing, none without the account's `campaigns` feature. */
function runnable(db: Knex, { inbox, account }: WebWidgetScope) {
  return Campaign.query(db).where({ account_id: account.id, inbox_id: inbox.id, enabled: true, campaign_type: "ongoing" });
}

/** Api::V1::Widget::CampaignsController#index with its view: the display id is the widget's campaign id. */
export async function widgetCampaigns(db: Knex, scope: WebWidgetScope): Promise<WidgetCampaign[]> {
  if (!scope.account.features.includes("campaigns")) return [];
  const campaigns = await runnable(db, scope).orderBy("display_id");
  const senderIds = [...new Set(campaigns.map((campaign) => campaign.sender_id).filter((id): id is number => id != null))];
  const senders = new Map((senderIds.length ? await User.query(db).findByIds(senderIds) : []).map((user) => [user.id, user]));
  return campaigns.map((campaign) => {
    const sender = campaign.sender_id != null ? senders.get(campaign.sender_id) : undefined;
    return {
      id: campaign.display_id,
      trigger_rules: campaign.trigger_rules,
      trigger_only_during_business_hours: campaign.trigger_only_during_business_hours,
      message: campaign.message,
      sender: sender ? { name: sender.name, avatar_url: avatarUrlOf(sender) } : null,
    };
  });
}

/**
 * CampaignListener#campaign_triggered: the visitor's conversation opened by the campaign (display id
 * `campaignDisplayId`), unless the visitor already has one. The contact inbox's row lock orders this
 * with the visitor's own first message, so one conversation results either way. Unlike Chatwoot, a
 * campaign disabled since the page loaded starts nothing. Returns the conversation made, if any.
 */
export async function triggerWidgetCampaign(
  db: Knex,
  scope: WebWidgetScope,
  visitor: Visitor,
  campaignDisplayId: number,
  additionalAttributes: Record<string, unknown>,
): Promise<Conversation | undefined> {
  if (!scope.account.features.includes("campaigns")) return undefined;
  const campaign = await runnable(db, scope).findOne({ display_id: campaignDisplayId });
  if (!campaign) return undefined;
  const sender = campaign.sender_id != null ? await User.query(db).findById(campaign.sender_id) : undefined;
  return db.transaction(async (trx) => {
    await trx("contact_inboxes").where("id", visitor.contactInbox.id).forUpdate().first("id");
    if (await Conversation.query(trx).findOne({ contact_inbox_id: visitor.contactInbox.id })) return undefined;
    return openCampaignConversation(trx, { campaign, inbox: scope.inbox, contactInbox: visitor.contactInbox, sender, additionalAttributes });
  });
}
