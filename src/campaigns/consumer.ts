import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { AppDeps } from "../deps";
import type { EventConsumer, EventRow } from "../events/outbox";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { CAMPAIGN_CHANGED_SIGNAL, type CampaignInput, campaignWorkflowId } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";

const isAlreadyDone = (err: unknown) => (err as { name?: string }).name === "WorkflowExecutionAlreadyStartedError";

/**
 * Starts a one-off campaign's workflow, or tells the running one its campaign changed, in one call.
 * A campaign whose run has ended (completed, deleted) takes no new run.
 */
export function campaignConsumer(): EventConsumer {
  return {
    async dispatch(deps: AppDeps, events: EventRow[]) {
      await inParallel(
        events.filter((event) => event.name === "campaign_changed"),
        DISPATCH_CONCURRENCY,
        async (event) => {
          const campaignId = Number(event.payload.campaign_id);
          const input: CampaignInput = { accountId: event.account_id, campaignId, batchSize: deps.settings.campaignSendsPerSecond };
          try {
            await deps.temporal.client.workflow.signalWithStart("campaignWorkflow", {
              workflowId: campaignWorkflowId(deps.temporal.installationId, event.account_id, campaignId),
              taskQueue: deps.temporal.taskQueue,
              args: [input],
              signal: CAMPAIGN_CHANGED_SIGNAL,
              signalArgs: [],
              workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
              typedSearchAttributes: [{ key: AccountIdAttribute, value: event.account_id }],
              memo: { installation: deps.temporal.installationId, work: `campaign ${campaignId}` },
              staticSummary: `Send campaign ${campaignId}`,
            });
          } catch (err) {
            if (!isAlreadyDone(err)) throw err;
          }
        },
      );
    },
  };
}
