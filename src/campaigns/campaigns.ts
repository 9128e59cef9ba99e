import type { Knex } from "knex";
import { NotFound, ValidationError, type AttributeError, fullMessage } from "../errors";
import { recordEvent } from "../events/outbox";
import { definedOnly } from "../lib/objects";
import { AccountUser } from "../models/AccountUser";
import { Campaign } from "../models/Campaign";
import { Inbox } from "../models/Inbox";
import type { CampaignInput } from "../routes/api/campaigns/schema";

export async function findCampaign(accountId: number, displayId: number, db?: Knex): Promise<Campaign> {
  const campaign = await Campaign.query(db).findOne({ account_id: accountId, display_id: displayId });
  if (!campaign) throw NotFound();
  return campaign;
}

export async function listCampaigns(accountId: number): Promise<Campaign[]> {
  return Campaign.query().where("account_id", accountId).orderBy("id");
}

/**
 * Campaign's validations: a title and a message, an inbox, sender and audience labels of the account,
 * an http(s) URL rule for a website campaign, and no edits of a completed campaign. The inbox decides
 * the type: a website inbox runs ongoing campaigns, the others one-off ones.
 */
async function validate(db: Knex, accountId: number, attributes: Partial<Campaign>, current?: Campaign): Promise<Inbox | undefined> {
  const errors: AttributeError[] = [];
  const add = (attribute: string, text: string) => errors.push({ attribute, message: fullMessage(attribute, text) });
  if (!attributes.title?.trim()) add("title", "can't be blank");
  if (!attributes.message?.trim()) add("message", "can't be blank");
  const inbox = attributes.inbox_id ? await Inbox.query(db).findOne({ account_id: accountId, id: attributes.inbox_id }) : undefined;
  if (!inbox) add("inbox", "must exist");
  if (attributes.sender_id && !(await AccountUser.query(db).findOne({ account_id: accountId, user_id: attributes.sender_id }))) add("sender", "must exist");
  const labelIds = (attributes.audience ?? []).filter((item) => item.type === "Label").map((item) => item.id);
  if (labelIds.length) {
    const found = await db("labels").where("account_id", accountId).whereIn("id", labelIds).count<{ count: string }[]>("* as count");
    if (Number(found[0]!.count) < new Set(labelIds).size) add("audience", "must name labels of the account");
  }
  if (inbox?.channel_type === "Channel::WebWidget") {
    const url = attributes.trigger_rules?.url;
    if (url !== undefined && !(typeof url === "string" && /^https?:\/\//.test(url))) add("url", "invalid");
  }
  if (current?.campaign_status === "completed" && attributes.campaign_status !== "active") add("status", "The campaign is already completed");
  if (errors.length) throw new ValidationError(errors);
  return inbox;
}

function typeOf(inbox: Inbox, scheduledAt: Date | null | undefined) {
  return inbox.channel_type === "Channel::WebWidget"
    ? { campaign_type: "ongoing" as const, scheduled_at: null }
    : { campaign_type: "one_off" as const, scheduled_at: scheduledAt ?? new Date() };
}

/** Its workflow is started (or told of the change) by the relay, once the change commits. */
async function announce(trx: Knex.Transaction, campaign: Pick<Campaign, "account_id" | "id" | "inbox_id">) {
  await recordEvent(trx, { accountId: campaign.account_id, name: "campaign_changed", inboxId: campaign.inbox_id, payload: { campaign_id: campaign.id } });
}

export async function createCampaign(db: Knex, accountId: number, input: CampaignInput): Promise<Campaign> {
  const attributes = definedOnly(input) as Partial<Campaign>;
  const inbox = (await validate(db, accountId, attributes))!;
  return db.transaction(async (trx) => {
    // The per-account display id, as Chatwoot's sequence trigger gives it; the lock orders concurrent creations.
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('campaign_display_ids'), ?::int)", [accountId]);
    const [{ next }] = (await trx("campaigns").where("account_id", accountId).select(trx.raw("coalesce(max(display_id), 0) + 1 AS next"))) as {
      next: number;
    }[];
    const campaign = await Campaign.query(trx)
      .insert({ ...attributes, ...typeOf(inbox, attributes.scheduled_at), account_id: accountId, display_id: Number(next) } as Partial<Campaign>)
      .returning("*");
    if (campaign.campaign_type === "one_off") await announce(trx, campaign);
    return campaign;
  });
}

export async function updateCampaign(db: Knex, current: Campaign, input: CampaignInput): Promise<Campaign> {
  return db.transaction(async (trx) => {
    const locked = await Campaign.query(trx).findById(current.id).forUpdate();
    if (!locked) throw NotFound();
    const changes = definedOnly(input) as Partial<Campaign>;
    const inbox = (await validate(trx, locked.account_id, { ...locked, ...changes }, locked))!;
    const type = typeOf(inbox, changes.scheduled_at ?? locked.scheduled_at);
    const updated = await Campaign.query(trx).patchAndFetchById(locked.id, { ...changes, ...type });
    if (updated.campaign_type === "one_off") await announce(trx, updated);
    return updated;
  });
}

export async function destroyCampaign(db: Knex, campaign: Campaign): Promise<void> {
  await db.transaction(async (trx) => {
    await Campaign.query(trx).deleteById(campaign.id);
    if (campaign.campaign_type === "one_off") await announce(trx, campaign);
  });
}
