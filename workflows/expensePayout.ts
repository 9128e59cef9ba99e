import { continueAsNew, proxyActivities, setCurrentDetails, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { PayoutInput } from "../src/scheduling/ledger";

const { payExpenseBatch } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { maximumInterval: "30 seconds" },
});

/**
 * expenses/pay_all: pays the matching unpaid expenses in batches, one activity per batch. A batch
 * retried after a crash pays nothing twice and counts the same, so the total is exact.
 */
export async function expensePayoutWorkflow(input: PayoutInput, progress = { afterId: 0, paid: 0 }): Promise<{ paid: number }> {
  let { afterId, paid } = progress;
  for (;;) {
    const batch = await payExpenseBatch(input, afterId);
    paid += batch.paid;
    setCurrentDetails(`${paid} expense(s) paid so far`);
    if (batch.lastId === null) return { paid };
    afterId = batch.lastId;
    if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof expensePayoutWorkflow>(input, { afterId, paid });
  }
}
