import { ActivityFailure, continueAsNew, proxyActivities, setCurrentDetails, TemporalFailure } from "@temporalio/workflow";
import type { Activities } from "../activities";
import { type ItemResult, ITEMS_PER_RUN, type MacroExecutionInput } from "../src/temporal/contracts";
import { forEachItem, tally } from "./itemRuns";

const { loadMacroActions } = proxyActivities<Activities>({ startToCloseTimeout: "30 seconds", retry: { maximumInterval: "10 seconds", maximumAttempts: 10 } });
// Actions are idempotent (posting checks for its own earlier message), so a retry is safe.
const { runMacroAction } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { maximumInterval: "30 seconds", maximumAttempts: 10, nonRetryableErrorTypes: ["AutomationActionRejected"] },
});

export interface MacroExecutionResult {
  ran: boolean;
  conversations: ItemResult[];
}

/**
 * A macro run by a user (MacrosExecutionJob): on each conversation its actions in order, each an
 * activity of its own; an action that fails is recorded and the next one still runs. The result
 * and the run's details say what happened on every conversation.
 */
export async function macroExecutionWorkflow(input: MacroExecutionInput): Promise<MacroExecutionResult> {
  const actions = input.actions ?? (await loadMacroActions(input));
  if (!actions) {
    setCurrentDetails("Not run: the macro was deleted");
    return { ran: false, conversations: [] };
  }
  const done = input.done ?? [];
  const batch = input.conversationIds.slice(done.length, done.length + ITEMS_PER_RUN);
  const results = await forEachItem(batch, "conversations", async (conversationId) => {
    const records: NonNullable<ItemResult["actions"]> = [];
    for (const [step, action] of actions.entries()) {
      try {
        records.push({ action: action.action_name, ...(await runMacroAction(input, conversationId, action, step)) });
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        const cause = err.cause instanceof TemporalFailure ? err.cause : err;
        records.push({ action: action.action_name, status: "failed", detail: cause.message });
      }
    }
    const status = records.some((r) => r.status === "failed") ? "failed" : records.every((r) => r.status === "skipped") && records.length ? "skipped" : "done";
    return { id: conversationId, status, actions: records };
  });
  const conversations = [...done, ...results];
  if (conversations.length < input.conversationIds.length) return continueAsNew<typeof macroExecutionWorkflow>({ ...input, actions, done: conversations });
  setCurrentDetails(`Macro ${input.macroId} on ${conversations.length} conversation(s): ${tally(conversations)}`);
  return { ran: true, conversations };
}
