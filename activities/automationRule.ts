import type { AppDeps } from "../src/deps";
import type { AutomationAction } from "../src/models/AutomationRule";
import { runAction } from "../src/services/automation/actions";
import { runAppointmentAction } from "../src/services/automation/appointmentActions";
import { evaluateRule } from "../src/services/automation/evaluate";
import type { AutomationWorkflowInput } from "../src/services/automation/trigger";

export function createAutomationRuleActivities(deps: AppDeps) {
  return {
    evaluateAutomationRule: (input: AutomationWorkflowInput) => evaluateRule(deps.knex, input),
    // An appointment rule's own actions act on the booking, the others on its linked conversation.
    runAutomationAction: (input: AutomationWorkflowInput, action: AutomationAction, step: number) =>
      (input.appointmentId !== undefined ? runAppointmentAction : runAction)(deps.knex, deps.settings.delivery, input, action, step),
  };
}
