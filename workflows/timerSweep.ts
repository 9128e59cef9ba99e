import { condition, continueAsNew, defineSignal, proxyActivities, setCurrentDetails, setHandler, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { SweepResult } from "../src/conversations/autoResolve";
import { MIN_SWEEP_GAP_MS, WAKE_SIGNAL, type TimerSweepInput } from "../src/temporal/contracts";

export const wakeSignal = defineSignal<[number]>(WAKE_SIGNAL);

const { sweepConversationTimers } = proxyActivities<Activities>({
  startToCloseTimeout: "2 minutes",
  // A database outage must not lose a deadline: the sweep is tried until it goes through.
  retry: { maximumInterval: "30 seconds" },
});

/** A sweep is about ten history events: a fresh run now and then keeps the history small. */
const DEFAULT_SWEEPS_PER_RUN = 300;

/**
 * The installation's conversation timers in one workflow (timerSweepWorkflowId). Deadlines live in
 * conversations.timer_due_at, written by planning whenever a conversation or its account's settings
 * change; planning signals a deadline that comes before the sweep's wake-up. The sweep sleeps until
 * the earliest one, then one activity auto-resolves (or reopens) every conversation due, each
 * re-checked under its row lock, and answers the next deadline. With nothing pending it ends: the
 * next deadline planned starts it again.
 */
export async function timerSweepWorkflow(input: TimerSweepInput): Promise<string> {
  let wakeAt = input.wakeAt;
  const wakeBy = (at: number) => {
    wakeAt = wakeAt === null ? at : Math.min(wakeAt, at);
  };
  setHandler(wakeSignal, wakeBy);

  let lastSweep = -Infinity;
  // A sweep's outcome stays on show (the UI's "current details") until the next one.
  let lastOutcome = "";
  // At least one sweep, or a run would only ever continue as new.
  const sweepsPerRun = Math.max(input.sweepsPerRun ?? DEFAULT_SWEEPS_PER_RUN, 1);
  for (let sweep = 0; sweep < sweepsPerRun; sweep++) {
    // Sleep until the wake-up (and the gap after the last sweep's start); an earlier deadline signalled meanwhile shortens the sleep.
    for (;;) {
      if (wakeAt === null) return "idle";
      const waitMs = Math.max(wakeAt, lastSweep + MIN_SWEEP_GAP_MS) - Date.now();
      if (waitMs <= 0) break;
      const sleepingFor = wakeAt;
      setCurrentDetails(`Next sweep at ${new Date(Date.now() + waitMs).toISOString()}${lastOutcome}`);
      await condition(() => wakeAt !== sleepingFor, waitMs);
    }
    lastSweep = Date.now();
    // Deadlines signalled from here on may be missing from the sweep's answer; earlier ones are in it.
    wakeAt = null;
    const swept: SweepResult = await sweepConversationTimers();
    if (swept.next !== null) wakeBy(swept.next);
    lastOutcome = `. Last sweep (${new Date(lastSweep).toISOString()}): ${swept.resolved} resolved, ${swept.reopened} reopened, ${swept.skipped} no longer due, ${swept.failed} failed`;
    if (workflowInfo().continueAsNewSuggested) break;
  }
  return continueAsNew<typeof timerSweepWorkflow>({ ...input, wakeAt });
}
