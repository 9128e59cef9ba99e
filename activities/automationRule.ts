import type { AppDeps } from "../src/deps";
import type { AutomationAction } from "../src/models/AutomationRule";
import { runAction } from "../src/services/automation/actions";
import { evaluateRule } from "../src/services/automation/evaluate";
import type { AutomationWorkflowInput } from "../src/services/automation/trigger";

export function createAutomationRuleActivities(deps: AppDeps) {
  return {
    evaluateAutomationRule: (input: AutomationWorkflowInput) => evaluateRule(deps.knex, input),
    runAutomationAction: (input: AutomationWorkflowInput, action: AutomationAction, step: number) =>
      runAction(deps.knex, deps.settings.delivery, input, action, step),
  };
}
