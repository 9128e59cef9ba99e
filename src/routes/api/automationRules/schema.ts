import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { jsonObject, railsBoolean, withinJsonLimits, wrappedUnder } from "../../../http/schemas";
import { automationAction } from "../../../schemas/automationAction";

// Loose: Chatwoot keeps whatever else a client puts in a condition or action.
const condition = z
  .looseObject({
    attribute_key: z.string().max(MAX_LENGTH.string),
    filter_operator: z.string().max(MAX_LENGTH.string).optional(),
    // An array, or {from: [...], to: [...]} for the attribute_changed operator.
    values: z.union([withinJsonLimits(z.array(z.unknown())), jsonObject()]).optional(),
    query_operator: z.string().max(MAX_LENGTH.string).nullable().optional(),
    custom_attribute_type: z.string().max(MAX_LENGTH.string).optional(),
  })
  .openapi("AutomationRuleCondition");

const action = automationAction;

/**
 * Create and update alike: a missing or null required field is left to the model, which answers it in
 * the automation-rule 422 shape (`{"error": {"name": ["can't be blank"]}}`) as it does its other errors.
 */
export const automationRuleBody = z
  .preprocess(
    wrappedUnder("automation_rule"),
    z
      .object({
        name: z.string().max(MAX_LENGTH.string).nullable(),
        description: z.string().max(MAX_LENGTH.text).nullable(),
        event_name: z.string().max(MAX_LENGTH.string).nullable(),
        conditions: withinJsonLimits(z.array(condition)).nullable(),
        actions: withinJsonLimits(z.array(action)).nullable(),
        active: railsBoolean(),
      })
      .partial(),
  )
  .openapi("AutomationRuleRequest");

export const automationRuleResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    name: z.string(),
    description: z.string().nullable(),
    event_name: z.string(),
    conditions: z.array(condition),
    actions: z.array(action),
    created_on: z.number().int(),
    active: z.boolean(),
  })
  .openapi("AutomationRule");

export const automationRuleEnvelope = z.object({ payload: automationRuleResponse }).openapi("AutomationRuleEnvelope");
export const automationRulesEnvelope = z.object({ payload: z.array(automationRuleResponse) }).openapi("AutomationRules");
