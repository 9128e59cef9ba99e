import type { Resource } from "../../models/scheduling/Resource";
import type { BreakRule, WorkRule } from "../../models/scheduling/WeeklyRule";

export function presentResource(resource: Resource) {
  return {
    id: resource.id,
    account_id: resource.account_id,
    user_id: resource.user_id,
    name: resource.name,
    specialty: resource.specialty,
    timezone: resource.timezone,
    slot_duration_min: resource.slot_duration_min,
    compensation_type: resource.compensation_type,
    compensation_value: resource.compensation_value,
    active: resource.active,
    custom_attributes: resource.custom_attributes,
  };
}

export function presentWorkRule(rule: WorkRule) {
  return {
    id: rule.id,
    account_id: rule.account_id,
    resource_id: rule.resource_id,
    weekday: rule.weekday,
    start_minute: rule.start_minute,
    end_minute: rule.end_minute,
    active: rule.active,
  };
}

export function presentBreakRule(rule: BreakRule) {
  return { ...presentWorkRule(rule), title: rule.title };
}
