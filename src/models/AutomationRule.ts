import type { Knex } from "knex";
import { offerSlotsParamsProblem } from "../schemas/schedulingOffer";
import { CouldNotProcess } from "../errors";
import { BaseModel } from "./BaseModel";
import { CustomAttributeDefinition } from "./CustomAttributeDefinition";

/**
 * Chatwoot's AutomationRule#conditions_attributes, with enterprise's sla_policy_id: this service follows
 * the enterprise edition elsewhere (audit logs), so rules made there are accepted here too.
 */
export const CONDITION_ATTRIBUTES: readonly string[] = [
  "content",
  "email",
  "country_code",
  "status",
  "message_type",
  "browser_language",
  "assignee_id",
  "team_id",
  "referer",
  "city",
  "company_name",
  "inbox_id",
  "mail_subject",
  "phone_number",
  "priority",
  "conversation_language",
  "labels",
  "private_note",
  "sla_policy_id",
];

/** Chatwoot's AutomationRule#actions_attributes, with enterprise's add_sla. */
export const ACTION_NAMES: readonly string[] = [
  "send_message",
  "add_label",
  "remove_label",
  "send_email_to_team",
  "assign_team",
  "assign_agent",
  "remove_assigned_agent",
  "remove_assigned_team",
  "send_webhook_event",
  "mute_conversation",
  "send_attachment",
  "change_status",
  "resolve_conversation",
  "open_conversation",
  "pending_conversation",
  "snooze_conversation",
  "change_priority",
  "send_email_transcript",
  "add_private_note",
  "add_sla",
  // Ours: offers free slots in the conversation (docs/scheduling-bots.md).
  "offer_slots",
];

/** Rules on a booking's events (our extension): the outbox's appointment.* events, by rule event name. */
export const APPOINTMENT_RULE_EVENTS = {
  appointment_created: "appointment.created",
  appointment_updated: "appointment.updated",
  appointment_rescheduled: "appointment.rescheduled",
  appointment_cancelled: "appointment.cancelled",
} as const;
export type AppointmentRuleEvent = keyof typeof APPOINTMENT_RULE_EVENTS;

export const isAppointmentRuleEvent = (name: unknown): name is AppointmentRuleEvent => typeof name === "string" && Object.hasOwn(APPOINTMENT_RULE_EVENTS, name);

/** What an appointment rule's conditions may look at (src/services/automation/appointmentConditions.ts). */
export const APPOINTMENT_CONDITION_ATTRIBUTES: readonly string[] = ["status", "payment_status", "service_id", "resource_id", "start_weekday", "start_hour"];

/**
 * An appointment rule's actions: its own, and every conversation action, which acts on the booking's
 * linked conversation (src/services/automation/appointmentActions.ts).
 */
export const APPOINTMENT_ACTION_NAMES: readonly string[] = ["change_appointment_status", ...ACTION_NAMES];

// Chatwoot stores conditions and actions as the client sent them, so keys beyond these are kept.
export interface AutomationCondition {
  attribute_key: string;
  filter_operator?: string;
  values?: unknown;
  query_operator?: string | null;
  custom_attribute_type?: string;
  [key: string]: unknown;
}

export interface AutomationAction {
  action_name: string;
  action_params?: unknown[];
  [key: string]: unknown;
}

/** The attributes a client writes; null where Rails would store nil. */
export interface AutomationRuleInput {
  name?: string | null;
  description?: string | null;
  event_name?: string | null;
  conditions?: AutomationCondition[] | null;
  actions?: AutomationAction[] | null;
  active?: boolean;
}

export type AutomationRuleAttributes = Pick<AutomationRule, "name" | "description" | "event_name" | "conditions" | "actions" | "active">;

/** ActiveModel's errors.messages: `{attribute: [message, ...]}`. */
export type ErrorMessages = Record<string, string[]>;

const isBlank = (value: unknown) =>
  value === null || value === undefined || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);

export class AutomationRule extends BaseModel {
  static tableName = "automation_rules";
  static jsonAttributes = ["conditions", "actions"];

  declare account_id: number;
  declare name: string;
  declare description: string | null;
  declare event_name: string;
  declare conditions: AutomationCondition[];
  declare actions: AutomationAction[];
  declare active: boolean;

  /**
   * Chatwoot's validations of a rule as it would be saved, in its order and words. The presence checks
   * are ours: Chatwoot leaves a missing name or event to the NOT NULL constraint (a 500).
   */
  static async errorsOf(accountId: number, rule: AutomationRuleInput, db?: Knex): Promise<ErrorMessages> {
    const errors: ErrorMessages = {};
    const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
    for (const attribute of ["name", "event_name", "conditions", "actions"] as const) {
      if (isBlank(rule[attribute])) add(attribute, "can't be blank");
    }
    const conditions = rule.conditions ?? [];
    const actions = rule.actions ?? [];

    const onAppointment = isAppointmentRuleEvent(rule.event_name);
    const conditionAttributes = onAppointment ? APPOINTMENT_CONDITION_ATTRIBUTES : CONDITION_ATTRIBUTES;
    const unlisted = conditions.map((c) => c.attribute_key).filter((key) => !conditionAttributes.includes(key));
    if (unlisted.length && onAppointment) add("conditions", `Automation conditions ${unlisted.join(",")} not supported.`);
    else if (unlisted.length) {
      const custom = await CustomAttributeDefinition.ofAccount(accountId, db).whereIn("attribute_key", unlisted).select("attribute_key");
      const customKeys = new Set(custom.map((definition) => definition.attribute_key));
      // Array difference as Ruby's: a repeated unsupported key is named each time.
      const unsupported = unlisted.filter((key) => !customKeys.has(key));
      if (unsupported.length) add("conditions", `Automation conditions ${unsupported.join(",")} not supported.`);
    }
    const actionNames = onAppointment ? APPOINTMENT_ACTION_NAMES : ACTION_NAMES;
    const unsupportedActions = actions.map((a) => a.action_name).filter((name) => !actionNames.includes(name));
    if (unsupportedActions.length) add("actions", `Automation actions ${unsupportedActions.join(",")} not supported.`);
    for (const action of actions.filter((a) => a.action_name === "offer_slots")) {
      const problem = offerSlotsParamsProblem(action.action_params);
      if (problem) add("actions", `offer_slots ${problem}`);
    }

    // Each operator joins its condition to the next, so only the last may go without one.
    if (conditions.filter((c) => c.query_operator === null || c.query_operator === undefined).length > 1) {
      add("conditions", "Automation conditions should have query operator.");
    }
    // The operators end up in the SQL of the rule's filter, so nothing but AND and OR may pass.
    for (const { query_operator } of conditions) {
      if (query_operator && !["AND", "OR"].includes(query_operator.toUpperCase())) add("conditions", 'Query operator must be either "AND" or "OR"');
    }
    return errors;
  }

  /**
   * Validates `changes` over the stored rule (none on create) and returns them; an invalid rule answers
   * Chatwoot's automation-rule 422, `{"error": errors.messages}`.
   */
  static async validate(accountId: number, changes: AutomationRuleInput, stored?: AutomationRule, db?: Knex): Promise<Partial<AutomationRuleAttributes>> {
    const errors = await AutomationRule.errorsOf(accountId, { ...stored, ...changes }, db);
    if (Object.keys(errors).length) throw CouldNotProcess(errors);
    // The presence checks passed, so no attribute that must hold a value is null.
    return changes as Partial<AutomationRuleAttributes>;
  }
}
