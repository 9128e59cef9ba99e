import type { AutomationRule } from "../models/AutomationRule";
import { unixSeconds } from "./time";

/** app/views/api/v1/accounts/automation_rules/_automation_rule.json.jbuilder; `files` is absent, as for a rule without attachments. */
export function presentAutomationRule(rule: AutomationRule) {
  return {
    id: rule.id,
    account_id: rule.account_id,
    name: rule.name,
    description: rule.description,
    event_name: rule.event_name,
    conditions: rule.conditions,
    actions: rule.actions,
    created_on: unixSeconds(rule.created_at),
    active: rule.active,
  };
}
