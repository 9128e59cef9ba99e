import { Context } from "@temporalio/activity";
import { runContactExport } from "../src/contactTransfers/exports";
import { finishContactImport, importContactChunk } from "../src/contactTransfers/imports";
import type { AppDeps } from "../src/deps";
import type { DataTransferInput } from "../src/temporal/contracts";

export function createContactTransferActivities({ knex }: AppDeps) {
  return {
    importContactChunk: (input: DataTransferInput) => importContactChunk(knex, input),
    finishContactImport: (input: DataTransferInput) => finishContactImport(knex, input),
    runContactExport: (input: DataTransferInput) => runContactExport(knex, input, () => Context.current().heartbeat()),
  };
}
