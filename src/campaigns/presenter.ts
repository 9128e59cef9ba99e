import type { Campaign } from "../models/Campaign";
import type { Inbox } from "../models/Inbox";
import type { Member } from "../models/InboxMember";
import { presentInboxMember, presentInboxSlim } from "../presenters/inbox";
import { iso, unixSeconds } from "../presenters/time";

/** api/v1/accounts/campaigns/_campaign: `id` is the per-account display id; one-offs add scheduled_at and audience. */
export function presentCampaign(campaign: Campaign, { inbox, sender }: { inbox: Inbox; sender?: Member }) {
  return {
    id: campaign.display_id,
    title: campaign.title,
    description: campaign.description,
    account_id: campaign.account_id,
    inbox: presentInboxSlim(inbox),
    ...(sender ? { sender: presentInboxMember(sender) } : {}),
    message: campaign.message,
    campaign_status: campaign.campaign_status,
    enabled: campaign.enabled,
    campaign_type: campaign.campaign_type,
    ...(campaign.campaign_type === "one_off" ? { scheduled_at: unixSeconds(campaign.scheduled_at), audience: campaign.audience } : {}),
    trigger_rules: campaign.trigger_rules,
    trigger_only_during_business_hours: campaign.trigger_only_during_business_hours,
    created_at: iso(campaign.created_at)!,
    updated_at: iso(campaign.updated_at)!,
  };
}
