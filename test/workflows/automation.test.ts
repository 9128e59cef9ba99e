import test from "ava";
import { ApplicationFailure } from "@temporalio/common";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import type { AutomationAction } from "../../src/models/AutomationRule";
import type { AutomationEventInput, AutomationWorkflowInput } from "../../src/services/automation/trigger";
import type { RuleEvaluation } from "../../src/services/automation/evaluate";
import { automationRuleWorkflowId } from "../../src/temporal/contracts";
import { uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const eventInput = (ruleIds: number[]): AutomationEventInput => ({
  accountId: 1,
  installationId: uniqueId("inst"),
  eventId: 9,
  eventUid: uniqueId("event"),
  eventName: "message_created",
  conversationId: 40,
  displayId: 4,
  messageId: 77,
  changedAttributes: {},
  ruleIds,
});

test("an event's rules run one after another; a failing action is recorded and the next one still runs", async (t) => {
  const input = eventInput([1, 2]);
  const evaluations: Record<number, RuleEvaluation> = {
    1: {
      matched: true,
      ruleName: "greet",
      actions: [
        { action_name: "add_label", action_params: ["vip"] },
        { action_name: "send_message", action_params: [] },
        { action_name: "resolve_conversation", action_params: [] },
      ],
    },
    2: { matched: false, ruleName: "never", reason: "conditions do not match" },
  } as Record<number, RuleEvaluation>;
  const ran: string[] = [];
  let labelAttempts = 0;
  const result = await withWorker(
    env,
    {
      evaluateAutomationRule: async ({ ruleId }: AutomationWorkflowInput) => {
        ran.push(`evaluate ${ruleId}`);
        return evaluations[ruleId];
      },
      runAutomationAction: async ({ ruleId }: AutomationWorkflowInput, action: AutomationAction, step: number) => {
        ran.push(`rule ${ruleId} step ${step} ${action.action_name}`);
        // A passing outage is retried; a refusal is not.
        if (action.action_name === "add_label" && ++labelAttempts === 1) throw new Error("connection reset");
        if (action.action_name === "send_message") throw ApplicationFailure.nonRetryable("no message text", "AutomationActionRejected");
        return { status: "done" as const };
      },
    },
    (taskQueue) => env.client.workflow.execute("automationEventWorkflow", { taskQueue, workflowId: uniqueId("automation"), args: [input] }),
  );
  t.deepEqual(result, {
    1: {
      matched: true,
      actions: [
        { action: "add_label", status: "done" },
        { action: "send_message", status: "failed", detail: "no message text" },
        { action: "resolve_conversation", status: "done" },
      ],
    },
    2: { matched: false, reason: "conditions do not match" },
  });
  t.deepEqual(ran, [
    "evaluate 1",
    "rule 1 step 0 add_label",
    "rule 1 step 0 add_label",
    "rule 1 step 1 send_message",
    "rule 1 step 2 resolve_conversation",
    "evaluate 2",
  ]);
  // Each rule ran as a child under its own id, so an operator finds it.
  const child = await env.client.workflow.getHandle(automationRuleWorkflowId(input.installationId, input.eventUid, 1)).describe();
  t.is(child.status.name, "COMPLETED");
});

test("a rule that fails outright is noted and the next rule still runs", async (t) => {
  const input = eventInput([1, 2]);
  const result = await withWorker(
    env,
    {
      evaluateAutomationRule: async ({ ruleId }: AutomationWorkflowInput): Promise<RuleEvaluation> => {
        if (ruleId === 1) throw ApplicationFailure.nonRetryable("conditions cannot be read", "BadRule");
        return { matched: true, ruleName: "fine", actions: [{ action_name: "mute_conversation", action_params: [] }] } as RuleEvaluation;
      },
      runAutomationAction: async () => ({ status: "done" as const }),
    },
    (taskQueue) => env.client.workflow.execute("automationEventWorkflow", { taskQueue, workflowId: uniqueId("automation"), args: [input] }),
  );
  t.deepEqual(Object.keys(result), ["1", "2"]);
  t.true("failed" in result[1]!, JSON.stringify(result[1]));
  t.deepEqual(result[2], { matched: true, actions: [{ action: "mute_conversation", status: "done" }] });
});
