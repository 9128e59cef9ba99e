import {
  condition,
  continueAsNew,
  defineSignal,
  patched,
  proxyActivities,
  proxyLocalActivities,
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

/** Runs recorded before local activities replay with these, and an upsert in every round. */
const timerActivities = proxyActivities<Activities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumInterval: "30 seconds" },
});

/**
 * Plan and fire as local activities: they run inside the workflow task that asks for them, so a
 * firing costs the server one workflow task and a marker instead of an activity task (three events
 * and a trip through matching) and a second workflow task for its result; with 10,000 deadlines in a
 * minute the server is the bottleneck. Both are short, idempotent database transactions (fire
 * re-checks under the row lock), so running one again after a lost workflow task is as harmless as
 * retrying an activity. The options are explicit because local activities retry differently:
 * - startToCloseTimeout as before: a stuck attempt is abandoned and retried after 30 s.
 * - retries never stop, as before (a database outage must not lose a deadline), but backoff longer
 *   than localRetryThreshold waits on a workflow timer instead of in the worker, where the workflow
 *   task would be kept alive by a heartbeat (a completed and a new workflow task) every 8 seconds;
 *   capped at a minute, a day-long outage adds about 7,000 events, well below the history limit.
 */
const localTimerActivities = proxyLocalActivities<Activities>({
  startToCloseTimeout: "30 seconds",
  localRetryThreshold: "10 seconds",
  retry: { maximumInterval: "1 minute" },
});

/** Keeps history small for conversations that see a lot of activity. */
const DEFAULT_ROUNDS_PER_RUN = 200;

/** Runs recorded before the re-plan floor replay without it. */
const NOT_YET_FLOOR_PATCH = "conversation-timer-not-yet-floor";

/** Runs recorded before plan and fire became local activities (and upserts only changes) replay without it. */
const LOCAL_ACTIVITIES_PATCH = "conversation-timer-local-activities";

/**
 * A conversation's own durable timer, as timers ran before the installation's timer sweep
 * (timerSweep.ts) took them over: nothing starts one now, and runs still open after the upgrade
 * finish here. It re-plans from the database and sleeps until the deadline or a signal; when the
 * deadline passes, the activity re-checks the database under the row lock and only then resolves (or
 * reopens), so a deadline moved since (which no longer signals it) only makes it re-plan, and a
 * conversation the sweep has already resolved makes it end. Drop it, its activities and its
 * histories once no run can be open (the longest snooze of a conversation planned before the upgrade).
 */
export async function conversationTimerWorkflow(input: ConversationTimerInput): Promise<string> {
  let touched = false;
  setHandler(touchSignal, () => {
    touched = true;
  });

  // At least one round, or a run would only ever continue as new.
  const roundsPerRun = Math.max(input.roundsPerRun ?? DEFAULT_ROUNDS_PER_RUN, 1);
  // Once per run, before the first command: a run in flight keeps the path it was recorded with.
  const local = patched(LOCAL_ACTIVITIES_PATCH);
  const { planConversationTimer, fireConversationTimer } = local ? localTimerActivities : timerActivities;
  const showAutoResolveAt = (at: number | null) => {
    // Each upsert is an event and a visibility write: with local activities one that changes nothing is skipped.
    if (local && (workflowInfo().typedSearchAttributes.get(AutoResolveAtAttribute)?.getTime() ?? null) === at) return;
    upsertSearchAttributes([{ key: AutoResolveAtAttribute, value: at === null ? null : new Date(at) }]);
  };
  // Fires in a row that found nothing due and no change since: the worker's clock may be behind.
  let notYet = 0;
  for (let round = 0; round < roundsPerRun; round++) {
    touched = false;
    const plan = await planConversationTimer(input);
    if (!plan) {
      showAutoResolveAt(null);
      setCurrentDetails("No timer: the conversation is not open (or auto-resolve is off)");
      if (!touched) return "idle";
      continue;
    }
    showAutoResolveAt(plan.at);
    setCurrentDetails(`${plan.kind === "resolve" ? "Resolves" : "Reopens"} at ${new Date(plan.at).toISOString()} unless it changes first`);
    // A local activity runs inside the workflow task, whose clock stopped when the task began: the
    // wait is measured from when the plan was made, or a slow plan would make the deadline as late.
    const now = local ? plan.plannedAt : Date.now();
    const waitMs = Math.max(plan.at - now, 1, notYetFloorMs(NOT_YET_FLOOR_PATCH, notYet));
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
