import type { AppDeps } from "../src/deps";
import { deleteAccountBatch, deleteAccountRow } from "../src/services/accountDeletion";

export function createAccountDeletionActivities({ knex }: AppDeps) {
  return {
    deleteAccountBatch: (accountId: number) => deleteAccountBatch(knex, accountId),
    deleteAccountRow: (accountId: number) => deleteAccountRow(knex, accountId),
  };
}
