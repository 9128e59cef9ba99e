import { ActivityFailure, executeChild, proxyActivities, setCurrentDetails, TemporalFailure, WorkflowIdReusePolicy } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { AutomationEventInput, AutomationWorkflowInput } from "../src/services/automation/trigger";
import { automationRuleWorkflowId } from "../src/temporal/contracts";
import { automationSearchAttributes, automationSubject } from "../src/services/automation/subject";

export interface ActionRecord {
  action: string;
  status: "done" | "skipped" | "failed";
  detail?: string;
}

export type AutomationRunResult = { matched: false; reason: string } | { matched: true; actions: ActionRecord[] };

/**
 * One rule on one event: evaluate its conditions against the database, then run its actions in
 * order, each as its own activity. As in Chatwoot's ActionService, an action that fails is recorded
 * and the next one still runs; the result and the details in the Temporal UI say which did what.
 */
export async function automationRuleWorkflow(input: AutomationWorkflowInput): Promise<AutomationRunResult> {
  const { evaluateAutomationRule } = proxyActivities<Activities>({
    startToCloseTimeout: "30 seconds",
    retry: { maximumInterval: "10 seconds", maximumAttempts: 10 },
  });
  // Actions are idempotent (posting checks for its own earlier message), so a retry is safe.
  const { runAutomationAction } = proxyActivities<Activities>({
    startToCloseTimeout: "1 minute",
    retry: { maximumInterval: "30 seconds", maximumAttempts: 10, nonRetryableErrorTypes: ["AutomationActionRejected"] },
  });

  const evaluation = await evaluateAutomationRule(input);
  if (!evaluation.matched) {
    setCurrentDetails(`Not run: ${evaluation.reason}`);
    return { matched: false, reason: evaluation.reason };
  }
  const records: ActionRecord[] = [];
  for (const [index, action] of evaluation.actions.entries()) {
    setCurrentDetails(`Action ${index + 1}/${evaluation.actions.length}: ${action.action_name}`);
    try {
      const outcome = await runAutomationAction(input, action, index);
      records.push({ action: action.action_name, ...outcome });
    } catch (err) {
      // A failed action arrives as an ActivityFailure; anything else is a bug here and must fail the task.
      if (!(err instanceof ActivityFailure)) throw err;
      const cause = err.cause instanceof TemporalFailure ? err.cause : err;
      records.push({ action: action.action_name, status: "failed", detail: cause.message });
    }
  }
  setCurrentDetails(`Rule "${evaluation.ruleName}": ${records.map((r) => `${r.action} ${r.status}${r.detail ? ` (${r.detail})` : ""}`).join("; ")}`);
  return { matched: true, actions: records };
}

/**
 * One event's rules, one after another (Chatwoot's AutomationRuleListener loop): each rule is a child
 * workflow of its own, so an operator sees every rule's run and result; a rule that fails outright is
 * noted and the next one still runs.
 */
export async function automationEventWorkflow({ ruleIds, ...event }: AutomationEventInput): Promise<Record<number, AutomationRunResult | { failed: string }>> {
  const results: Record<number, AutomationRunResult | { failed: string }> = {};
  for (const ruleId of ruleIds) {
    setCurrentDetails(`Rule ${ruleId} (${Object.keys(results).length + 1}/${ruleIds.length})`);
    try {
      results[ruleId] = await executeChild(automationRuleWorkflow, {
        workflowId: automationRuleWorkflowId(event.installationId, event.eventUid, ruleId),
        args: [{ ...event, ruleId }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: automationSearchAttributes(event),
        staticSummary: `Automation rule ${ruleId} on ${event.eventName} of ${automationSubject(event)} (event ${event.eventId})`,
      });
    } catch (err) {
      if (!(err instanceof TemporalFailure)) throw err;
      results[ruleId] = { failed: err.cause?.message ?? err.message };
    }
  }
  setCurrentDetails(`Ran ${ruleIds.length} rule(s) on ${event.eventName} of ${automationSubject(event)}`);
  return results;
}
