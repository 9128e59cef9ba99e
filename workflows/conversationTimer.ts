import {
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { ConversationTimerInput } from "../src/services/conversationTimers";
import { TOUCH_SIGNAL } from "../src/temporal/contracts";
import { AutoResolveAtAttribute } from "../src/temporal/searchAttributes";
import { notYetFloorMs } from "./replanFloor";

export const touchSignal = defineSignal(TOUCH_SIGNAL);

const { planConversationTimer, fireConversationTimer } = proxyActivities<Activities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumInterval: "30 seconds" },
});

/** Keeps history small for conversations that see a lot of activity. */
const DEFAULT_ROUNDS_PER_RUN = 200;

/** Runs recorded before the re-plan floor replay without it. */
const NOT_YET_FLOOR_PATCH = "conversation-timer-not-yet-floor";

/**
 * A conversation's own durable timer. Every change to the conversation signals it; it re-plans from
 * the database and sleeps until the deadline or the next signal. When the deadline passes, the
 * activity re-checks the database and only then resolves (or reopens), so a late or duplicate signal
 * can never resolve a conversation that had activity. With nothing to wait for, it ends; the next
 * change starts it again.
 */
export async function conversationTimerWorkflow(input: ConversationTimerInput): Promise<string> {
  let touched = false;
  setHandler(touchSignal, () => {
    touched = true;
  });

  // At least one round, or a run would only ever continue as new.
  const roundsPerRun = Math.max(input.roundsPerRun ?? DEFAULT_ROUNDS_PER_RUN, 1);
  // Fires in a row that found nothing due and no change since: the worker's clock may be behind.
  let notYet = 0;
  for (let round = 0; round < roundsPerRun; round++) {
    touched = false;
    const plan = await planConversationTimer(input);
    if (!plan) {
      upsertSearchAttributes([{ key: AutoResolveAtAttribute, value: null }]);
      setCurrentDetails("No timer: the conversation is not open (or auto-resolve is off)");
      if (!touched) return "idle";
      continue;
    }
    upsertSearchAttributes([{ key: AutoResolveAtAttribute, value: new Date(plan.at) }]);
    setCurrentDetails(`${plan.kind === "resolve" ? "Resolves" : "Reopens"} at ${new Date(plan.at).toISOString()} unless it changes first`);
    const waitMs = Math.max(plan.at - Date.now(), 1, notYetFloorMs(NOT_YET_FLOOR_PATCH, notYet));
    const woken = await condition(() => touched, waitMs, { summary: `${plan.kind} at ${new Date(plan.at).toISOString()}` });
    if (woken) notYet = 0;
    else {
      const outcome = await fireConversationTimer(input, plan.kind);
      if (outcome && !touched) return outcome;
      notYet = outcome || touched ? 0 : notYet + 1;
    }
    if (workflowInfo().continueAsNewSuggested) break;
  }
  // The signal that arrived during this run is not lost: the next run starts by re-planning.
  return continueAsNew<typeof conversationTimerWorkflow>(input);
}
