import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { AppDeps } from "../deps";
import { startOnce } from "../temporal/client";
import { contactExportWorkflowId, contactImportWorkflowId, type DataTransferInput } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";

const KINDS = {
  import: { table: "data_imports", workflow: "contactImportWorkflow", workflowId: contactImportWorkflowId },
  export: { table: "data_exports", workflow: "contactExportWorkflow", workflowId: contactExportWorkflowId },
} as const;

/**
 * Starts the workflow of a data import or export row. A run that cannot be started leaves the row
 * failed (with why), never pending for ever, and the error goes on to the request.
 */
export async function startTransferRun(deps: AppDeps, kind: keyof typeof KINDS, input: DataTransferInput): Promise<void> {
  const { table, workflow, workflowId } = KINDS[kind];
  try {
    await startOnce(deps, workflow, {
      workflowId: workflowId(deps.temporal.installationId, input.id),
      work: `contact ${kind} ${input.id}`,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [{ key: AccountIdAttribute, value: input.accountId }],
      staticSummary: `Contact ${kind} ${input.id} of account ${input.accountId}`,
    });
  } catch (err) {
    await deps
      .knex(table)
      .where("id", input.id)
      .whereNotIn("status", ["completed", "failed"])
      .update({ status: "failed", processing_errors: `The ${kind} could not be started`, updated_at: deps.knex.fn.now() });
    throw err;
  }
}
