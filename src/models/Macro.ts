import type { AutomationAction } from "./AutomationRule";
import { BaseModel } from "./BaseModel";

export const MACRO_VISIBILITIES = ["personal", "global"] as const;
export type MacroVisibility = (typeof MACRO_VISIBILITIES)[number];

/** Macro::ACTIONS: the automation actions a macro may hold. */
export const MACRO_ACTION_NAMES: readonly string[] = [
  "send_message",
  "add_label",
  "assign_team",
  "assign_agent",
  "mute_conversation",
  "change_status",
  "remove_label",
  "remove_assigned_agent",
  "remove_assigned_team",
  "resolve_conversation",
  "snooze_conversation",
  "change_priority",
  "send_email_transcript",
  "send_attachment",
  "add_private_note",
  "send_webhook_event",
];

/** A named, ordered list of automation actions that a user runs on chosen conversations (Chatwoot's Macro). */
export class Macro extends BaseModel {
  static tableName = "macros";
  static jsonAttributes = ["actions"];

  declare account_id: number;
  declare name: string;
  declare visibility: MacroVisibility;
  declare actions: AutomationAction[];
  declare created_by_id: number | null;
  declare updated_by_id: number | null;
}
