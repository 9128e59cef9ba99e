import { continueAsNew, proxyActivities, setCurrentDetails, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";

const { deleteAccountBatch, deleteAccountRow } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  // Deletion must finish eventually: retry forever, backing off to once a minute.
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

/** Removes an account's data batch by batch, then the account itself. */
export async function accountDeletionWorkflow(accountId: number, deletedSoFar = 0): Promise<{ deletedRows: number }> {
  let deleted = deletedSoFar;
  for (;;) {
    const batch = await deleteAccountBatch(accountId);
    if (batch.done) break;
    deleted += batch.deleted;
    setCurrentDetails(`Deleted ${deleted} rows; last batch from ${batch.step}`);
    if (workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof accountDeletionWorkflow>(accountId, deleted);
    }
  }
  await deleteAccountRow(accountId);
  return { deletedRows: deleted };
}
