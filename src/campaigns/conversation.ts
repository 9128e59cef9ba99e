import type { Knex } from "knex";
import { createConversation } from "../conversations/newConversation";
import type { Campaign } from "../models/Campaign";
import type { ContactInbox } from "../models/ContactInbox";
import type { Conversation } from "../models/Conversation";
import type { Inbox } from "../models/Inbox";
import type { User } from "../models/User";

export interface CampaignConversation {
  campaign: Campaign;
  inbox: Inbox;
  contactInbox: ContactInbox | { contactId: number };
  sender: User | undefined;
  additionalAttributes?: Record<string, unknown>;
}

/**
 * Campaigns::CampaignConversationBuilder: a conversation of the campaign (campaign_id set) whose first
 * message is the campaign's text, outgoing from its sender. The message carries campaign_id too, so it
 * never counts as an agent's first reply.
 */
export async function openCampaignConversation(
  db: Knex,
  { campaign, inbox, contactInbox, sender, additionalAttributes }: CampaignConversation,
): Promise<Conversation> {
  return createConversation(
    db,
    {
      accountId: campaign.account_id,
      inbox,
      contactInbox,
      campaignId: campaign.id,
      additionalAttributes,
      message: {
        input: { content: campaign.message, message_type: "outgoing", campaign_id: campaign.id },
        sender: sender ? { type: "User", id: sender.id } : null,
      },
    },
    sender ? { kind: "user", user: sender } : null,
  );
}
