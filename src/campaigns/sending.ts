import type { Knex } from "knex";
import { Campaign } from "../models/Campaign";
import { openCampaignConversation } from "./conversation";
import { Inbox } from "../models/Inbox";
import { User } from "../models/User";
import type { CampaignInput } from "../temporal/contracts";

export interface CampaignPlan {
  enabled: boolean;
  completed: boolean;
  /** Unix milliseconds. */
  scheduledAt: number;
}

/** What the workflow waits on: none when the campaign is gone or is not a one-off. */
export async function campaignPlan(db: Knex, { accountId, campaignId }: Pick<CampaignInput, "accountId" | "campaignId">): Promise<CampaignPlan | null> {
  const campaign = await Campaign.query(db).findOne({ account_id: accountId, id: campaignId });
  if (!campaign || campaign.campaign_type !== "one_off") return null;
  return {
    enabled: campaign.enabled,
    completed: campaign.campaign_status === "completed",
    scheduledAt: (campaign.scheduled_at ?? campaign.created_at).getTime(),
  };
}

/** The contacts an audience names: those carrying any of its labels, by id. */
async function audienceAfter(db: Knex, campaign: Campaign, afterContactId: number, limit: number): Promise<number[]> {
  const labelIds = campaign.audience.filter((item) => item.type === "Label").map((item) => item.id);
  if (!labelIds.length) return [];
  const titles: string[] = (await db("labels").where("account_id", campaign.account_id).whereIn("id", labelIds).select("title")).map(
    (row: { title: string }) => row.title,
  );
  if (!titles.length) return [];
  const rows: { id: string }[] = await db("contacts")
    .where("account_id", campaign.account_id)
    .where("id", ">", afterContactId)
    .whereRaw("labels && ?::text[]", [titles])
    .orderBy("id")
    .limit(limit)
    .select("id");
  return rows.map((row) => Number(row.id));
}

/**
 * Messages one contact, at most once: the delivery row and the conversation with the campaign's
 * message commit together, and a contact with a delivery row is passed over.
 */
async function messageContact(db: Knex, campaign: Campaign, inbox: Inbox, sender: User | undefined, contactId: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [delivery] = await trx("campaign_deliveries")
      .insert({ campaign_id: campaign.id, contact_id: contactId })
      .onConflict(["campaign_id", "contact_id"])
      .ignore()
      .returning("id");
    if (!delivery) return false;
    const conversation = await openCampaignConversation(trx, {
      campaign,
      inbox,
      sender,
      contactInbox: { contactId },
      additionalAttributes: { campaign_id: campaign.id },
    });
    await trx("campaign_deliveries").where("id", delivery.id).update({ conversation_id: conversation.id });
    return true;
  });
}

export interface BatchResult {
  sent: number;
  /** The last contact of the batch: the next batch starts after it. */
  lastContactId: number;
  done: boolean;
}

/** The next batch of the audience after a contact, each messaged once; a retried batch skips those already done. */
export async function sendCampaignBatch(db: Knex, input: CampaignInput & { afterContactId: number }): Promise<BatchResult> {
  const campaign = await Campaign.query(db).findOne({ account_id: input.accountId, id: input.campaignId });
  if (!campaign) return { sent: 0, lastContactId: input.afterContactId, done: true };
  const inbox = await Inbox.query(db).findById(campaign.inbox_id);
  if (!inbox) return { sent: 0, lastContactId: input.afterContactId, done: true };
  const sender = campaign.sender_id ? await User.query(db).findById(campaign.sender_id) : undefined;
  const contactIds = await audienceAfter(db, campaign, input.afterContactId, input.batchSize);
  let sent = 0;
  for (const contactId of contactIds) if (await messageContact(db, campaign, inbox, sender, contactId)) sent++;
  return { sent, lastContactId: contactIds.at(-1) ?? input.afterContactId, done: contactIds.length < input.batchSize };
}

/** Chatwoot's completed status, once every contact of the audience has been reached. */
export async function completeCampaign(db: Knex, { accountId, campaignId }: Pick<CampaignInput, "accountId" | "campaignId">): Promise<void> {
  await Campaign.query(db).patch({ campaign_status: "completed" }).where({ account_id: accountId, id: campaignId });
}
