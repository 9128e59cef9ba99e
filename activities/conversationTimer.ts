import { heartbeat } from "@temporalio/activity";
import type { AppDeps } from "../src/deps";
import { fireConversationTimer, sweepConversationTimers, type TimerTarget } from "../src/services/autoResolve";
import { loadTimerPlan, touchAccountTimers, type TimerPlan } from "../src/services/conversationTimers";

/** A plan with the worker's clock when it was made: what a local activity's workflow measures its wait from. */
export type TimedTimerPlan = TimerPlan & { plannedAt: number };

export function createConversationTimerActivities(deps: AppDeps) {
  return {
    // planConversationTimer and fireConversationTimer serve conversationTimerWorkflow's runs from before the sweep.
    planConversationTimer: async (timer: TimerTarget): Promise<TimedTimerPlan | null> => {
      const plan = await loadTimerPlan(deps.knex, timer.conversationId, timer.conversationUuid);
      return plan && { ...plan, plannedAt: Date.now() };
    },
    fireConversationTimer: (timer: TimerTarget, kind: TimerPlan["kind"]) => fireConversationTimer(deps.knex, timer, kind),
    sweepConversationTimers: () => sweepConversationTimers(deps.knex),
    touchAccountTimers: (accountId: number) => touchAccountTimers(deps, accountId, () => heartbeat()),
  };
}
