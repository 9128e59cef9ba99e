import { continueAsNew, proxyActivities, setCurrentDetails } from "@temporalio/workflow";
import type { Activities } from "../activities";
import { type BulkActionInput, type ItemResult, ITEMS_PER_RUN } from "../src/temporal/contracts";
import { forEachItem, tally } from "./itemRuns";

// Each item's steps compare with what is stored, so a retry repeats nothing.
const { runBulkActionItem } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { maximumInterval: "30 seconds", maximumAttempts: 10, nonRetryableErrorTypes: ["BulkActionItemRejected"] },
});

export interface BulkActionResult {
  type: BulkActionInput["type"];
  items: ItemResult[];
}

/**
 * A bulk action (BulkActionsJob, Contacts::BulkActionJob): each conversation or contact an activity
 * of its own, a few at a time; an item that fails is recorded and the rest go on. The result and
 * the run's details say what happened to every item.
 */
export async function bulkActionWorkflow(input: BulkActionInput): Promise<BulkActionResult> {
  const done = input.done ?? [];
  const batch = input.ids.slice(done.length, done.length + ITEMS_PER_RUN);
  const items = [...done, ...(await forEachItem(batch, input.type === "Contact" ? "contacts" : "conversations", (id) => runBulkActionItem(input, id)))];
  if (items.length < input.ids.length) return continueAsNew<typeof bulkActionWorkflow>({ ...input, done: items });
  setCurrentDetails(`Bulk action on ${items.length} ${input.type.toLowerCase()}(s): ${tally(items)}`);
  return { type: input.type, items };
}
