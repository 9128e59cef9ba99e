import type { AppDeps } from "../src/deps";
import { campaignPlan, completeCampaign, sendCampaignBatch } from "../src/campaigns/sending";
import type { CampaignInput } from "../src/temporal/contracts";

export function createCampaignActivities({ knex }: AppDeps) {
  return {
    campaignPlan: (input: CampaignInput) => campaignPlan(knex, input),
    sendCampaignBatch: (input: CampaignInput & { afterContactId: number }) => sendCampaignBatch(knex, input),
    completeCampaign: (input: CampaignInput) => completeCampaign(knex, input),
  };
}
