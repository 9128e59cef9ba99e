/**
 * The recorded histories, as JSON. Not the Temporal CLI's format: the SDK's proto-JSON helpers
 * (historyToJSON/historyFromJSON) fail with the protobufjs copies this install has, so the files
 * hold the History message as @temporalio/proto's own toObject gives it (enums by name, 64-bit
 * numbers and bytes as strings), read back with fromObject.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { temporal } from "@temporalio/proto";

export type History = temporal.api.history.v1.History;
const { History } = temporal.api.history.v1;

export const HISTORIES_DIR = path.join(__dirname, "histories");

/** The workflows whose runs can be in flight across a deploy: each must have a recorded history. */
export const LONG_LIVED = [
  "timerSweepWorkflow",
  "accountTimersWorkflow",
  "webhookLaneWorkflow",
  "webhookDeliveryWorkflow",
  "automationEventWorkflow",
  "automationRuleWorkflow",
  "accountDeletionWorkflow",
  "appointmentWorkflow",
  "schedulingOfferWorkflow",
  "campaignWorkflow",
  "transcriptWorkflow",
  "contactImportWorkflow",
  "contactExportWorkflow",
] as const;

export function saveHistory(name: string, history: temporal.api.history.v1.IHistory): string {
  const file = path.join(HISTORIES_DIR, `${name}.json`);
  const json = History.toObject(History.fromObject(history), { longs: String, enums: String, bytes: String });
  writeFileSync(file, `${JSON.stringify(json, null, 1)}\n`);
  return file;
}

export function loadHistory(file: string): History {
  return History.fromObject(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), "utf8")));
}

export const historyFiles = () =>
  readdirSync(HISTORIES_DIR)
    .filter((file) => file.endsWith(".json"))
    .sort();

export const workflowTypeOf = (history: History) => history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
