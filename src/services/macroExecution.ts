import { randomUUID } from "node:crypto";
import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import type { DeliveryConfig } from "../config";
import type { AppDeps } from "../deps";
import type { AutomationAction } from "../models/AutomationRule";
import { Macro } from "../models/Macro";
import { User } from "../models/User";
import { startOnce } from "../temporal/client";
import { type MacroExecutionInput, macroExecutionWorkflowId } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { type ActionOutcome, runActionOn } from "./automation/actions";

/** Starts the macro's run on the conversations as the user: one workflow per request, so a client's retry is a run of its own, as in Chatwoot. */
export async function startMacroExecution(deps: AppDeps, input: Omit<MacroExecutionInput, "installationId" | "executionUid">): Promise<string> {
  const executionUid = randomUUID();
  const workflowId = macroExecutionWorkflowId(deps.temporal.installationId, executionUid);
  await startOnce(deps, "macroExecutionWorkflow", {
    workflowId,
    work: `macro ${input.macroId} execution ${executionUid}`,
    args: [{ ...input, installationId: deps.temporal.installationId, executionUid } satisfies MacroExecutionInput],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [{ key: AccountIdAttribute, value: input.accountId }],
    staticSummary: `Macro ${input.macroId} run by user ${input.userId} on ${input.conversationIds.length} conversation(s)`,
  });
  return workflowId;
}

/** The macro's actions as they are when the run starts; null once the macro is gone. */
export async function loadMacroActions(db: Knex, input: MacroExecutionInput): Promise<AutomationAction[] | null> {
  const macro = await Macro.query(db).findOne({ id: input.macroId, account_id: input.accountId });
  return macro ? macro.actions : null;
}

/**
 * One action of the macro on one conversation, as the user who ran it (Macros::ExecutionService):
 * messages are sent by them, activity messages name them, "self" assigns them. The key names this
 * action of this run on this conversation, so a retried attempt posts nothing twice.
 */
export async function runMacroAction(
  db: Knex,
  webhooks: Pick<DeliveryConfig, "timeoutMs" | "allowPrivateNetworks">,
  input: MacroExecutionInput,
  conversationId: number,
  action: AutomationAction,
  step: number,
): Promise<ActionOutcome> {
  const user = await User.query(db).findById(input.userId);
  return runActionOn(
    db,
    webhooks,
    {
      accountId: input.accountId,
      conversationId,
      actor: user ? { kind: "user", user } : null,
      key: `${macroExecutionWorkflowId(input.installationId, input.executionUid)}/${conversationId}/${step}`,
      messageAttributes: {},
      webhookEvent: async () => "macro.executed",
      selfUserId: input.userId,
    },
    action,
  );
}
