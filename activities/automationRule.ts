import type { AppDeps } from "../src/deps";
import type { AutomationAction } from "../src/models/AutomationRule";
import { runAction } from "../src/services/automation/actions";
import { evaluateRule } from "../src/services/automation/evaluate";
import type { AutomationWorkflowInput } from "../src/services/automation/trigger";
import { loadDeliveryConfig } from "../src/config";

export function createAutomationRuleActivities(deps: AppDeps) {
  const webhooks = loadDeliveryConfig();
  return {
    evaluateAutomationRule: (input: AutomationWorkflowInput) => evaluateRule(deps.knex, input),
    runAutomationAction: (input: AutomationWorkflowInput, action: AutomationAction, step: number) => runAction(deps.knex, webhooks, input, action, step),
  };
}
