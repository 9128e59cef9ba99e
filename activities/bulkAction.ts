import type { AppDeps } from "../src/deps";
import { runBulkContactItem, runBulkConversationItem } from "../src/services/bulkActions";
import type { BulkActionInput } from "../src/temporal/contracts";

export function createBulkActionActivities(deps: AppDeps) {
  return {
    runBulkActionItem: (input: BulkActionInput, id: number) =>
      input.type === "Contact" ? runBulkContactItem(deps.knex, input, id) : runBulkConversationItem(deps.knex, input, id),
  };
}
