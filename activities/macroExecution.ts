import type { AppDeps } from "../src/deps";
import type { AutomationAction } from "../src/models/AutomationRule";
import { loadMacroActions, runMacroAction } from "../src/services/macroExecution";
import type { MacroExecutionInput } from "../src/temporal/contracts";

export function createMacroExecutionActivities(deps: AppDeps) {
  return {
    loadMacroActions: (input: MacroExecutionInput) => loadMacroActions(deps.knex, input),
    runMacroAction: (input: MacroExecutionInput, conversationId: number, action: AutomationAction, step: number) =>
      runMacroAction(deps.knex, deps.settings.delivery, input, conversationId, action, step),
  };
}
