import { heartbeat } from "@temporalio/activity";
import type { AppDeps } from "../src/deps";
import { fireConversationTimer, type TimerTarget } from "../src/services/autoResolve";
import { loadTimerPlan, touchAccountTimers, type TimerPlan } from "../src/services/conversationTimers";

export function createConversationTimerActivities(deps: AppDeps) {
  return {
    planConversationTimer: (timer: TimerTarget) => loadTimerPlan(deps.knex, timer.conversationId, timer.conversationUuid),
    fireConversationTimer: (timer: TimerTarget, kind: TimerPlan["kind"]) => fireConversationTimer(deps.knex, timer, kind),
    touchAccountTimers: (accountId: number) => touchAccountTimers(deps, accountId, () => heartbeat()),
  };
}
