import { continueAsNew, proxyActivities, setCurrentDetails, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { DataTransferInput } from "../src/temporal/contracts";

// A chunk commits with the import's cursor, so a retried chunk writes nothing twice.
const { importContactChunk, finishContactImport } = proxyActivities<Activities>({
  startToCloseTimeout: "5 minutes",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

// The export heartbeats once a page; a lost worker's export is started again elsewhere.
const { runContactExport } = proxyActivities<Activities>({
  startToCloseTimeout: "1 hour",
  heartbeatTimeout: "1 minute",
  retry: { initialInterval: "5 seconds", backoffCoefficient: 2, maximumInterval: "5 minutes", maximumAttempts: 10 },
});

/**
 * A contact import (DataImportJob): the stored CSV a chunk at a time, each chunk an activity that
 * resumes where the last one committed, then the failed-records CSV and the completed status.
 */
export async function contactImportWorkflow(input: DataTransferInput): Promise<{ status: string; processed: number; rejected: number }> {
  let chunks = 0;
  for (;;) {
    const { done } = await importContactChunk(input);
    chunks += 1;
    setCurrentDetails(`${chunks} chunk(s) read`);
    if (done) break;
    if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof contactImportWorkflow>(input);
  }
  return finishContactImport(input);
}

/** A contact export (Account::ContactsExportJob): the CSV, its link and the requesting user's notification. */
export async function contactExportWorkflow(input: DataTransferInput): Promise<{ rows: number }> {
  return runContactExport(input);
}
