import { condition, continueAsNew, defineSignal, proxyActivities, setHandler, sleep, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";
import { CAMPAIGN_CHANGED_SIGNAL, type CampaignInput } from "../src/temporal/contracts";

const { campaignPlan, sendCampaignBatch, completeCampaign } = proxyActivities<Activities>({
  startToCloseTimeout: "5 minutes",
  retry: { initialInterval: "5 seconds", backoffCoefficient: 2, maximumInterval: "5 minutes" },
});

export const campaignChanged = defineSignal(CAMPAIGN_CHANGED_SIGNAL);

/**
 * A one-off campaign: a durable timer until its scheduled time (re-read when the campaign changes),
 * then its audience in batches, one batch a second, each contact messaged once (the activity keeps a
 * delivery row per contact), then the campaign marked completed. A restart resumes where it was.
 */
export async function campaignWorkflow(input: CampaignInput): Promise<{ sent: number }> {
  let changed = false;
  setHandler(campaignChanged, () => {
    changed = true;
  });
  let cursor: number;
  if (input.afterContactId !== undefined) cursor = input.afterContactId;
  else {
    for (;;) {
      changed = false;
      const plan = await campaignPlan(input);
      if (!plan || plan.completed) return { sent: 0 };
      const wait = plan.scheduledAt - Date.now();
      if (plan.enabled && wait <= 0) break;
      // A disabled campaign waits for a change; an enabled one for its time or a change.
      await condition(() => changed, plan.enabled ? wait : undefined);
    }
    cursor = 0;
  }
  let sent = 0;
  for (;;) {
    const batch: { sent: number; lastContactId: number; done: boolean } = await sendCampaignBatch({ ...input, afterContactId: cursor });
    sent += batch.sent;
    cursor = batch.lastContactId;
    if (batch.done) break;
    await sleep("1 second");
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof campaignWorkflow>({ ...input, afterContactId: cursor });
  }
  await completeCampaign(input);
  return { sent };
}
