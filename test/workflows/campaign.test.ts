import test from "ava";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import type { CampaignPlan } from "../../src/campaigns/sending";
import { CAMPAIGN_CHANGED_SIGNAL } from "../../src/temporal/contracts";
import { uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const input = { accountId: 1, campaignId: 7, batchSize: 2 };

test("a campaign waits for its time, re-reads it on a change, then sends its batches in order and completes", async (t) => {
  let scheduledAt = Date.now() + 60_000;
  const cursors: number[] = [];
  let completed = 0;
  const workflowId = uniqueId("campaign");
  const result = await withWorker(
    env,
    {
      campaignPlan: async (): Promise<CampaignPlan> => ({ enabled: true, completed: false, scheduledAt }),
      sendCampaignBatch: async ({ afterContactId }) => {
        cursors.push(afterContactId);
        const ids = [afterContactId + 1, afterContactId + 2].filter((id) => id <= 5);
        return { sent: ids.length, lastContactId: ids.at(-1) ?? afterContactId, done: ids.length < 2 };
      },
      completeCampaign: async () => {
        completed++;
      },
    },
    async (taskQueue) => {
      const handle = await env.client.workflow.start("campaignWorkflow", { taskQueue, workflowId, args: [input] });
      await new Promise((resolve) => setTimeout(resolve, 500));
      t.deepEqual(cursors, [], "nothing before its time");
      // Moved to now: the change ends the wait at once.
      scheduledAt = Date.now();
      await handle.signal(CAMPAIGN_CHANGED_SIGNAL);
      return handle.result();
    },
  );
  t.deepEqual(result, { sent: 5 });
  t.deepEqual(cursors, [0, 2, 4]);
  t.is(completed, 1);
});

test("a deleted campaign ends its run without sending", async (t) => {
  let sends = 0;
  const result = await withWorker(
    env,
    {
      campaignPlan: async () => null,
      sendCampaignBatch: async () => {
        sends++;
        return { sent: 0, lastContactId: 0, done: true };
      },
    },
    (taskQueue) => env.client.workflow.execute("campaignWorkflow", { taskQueue, workflowId: uniqueId("campaign"), args: [input] }),
  );
  t.deepEqual(result, { sent: 0 });
  t.is(sends, 0);
});
