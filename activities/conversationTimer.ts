import { heartbeat } from "@temporalio/activity";
import type { AppDeps } from "../src/deps";
import { fireConversationTimer } from "../src/services/autoResolve";
import { loadTimerPlan, touchAccountTimers, type TimerPlan } from "../src/services/conversationTimers";

export function createConversationTimerActivities(deps: AppDeps) {
  return {
    planConversationTimer: (conversationId: number) => loadTimerPlan(deps.knex, conversationId),
    fireConversationTimer: (conversationId: number, kind: TimerPlan["kind"]) => fireConversationTimer(deps.knex, conversationId, kind),
    touchAccountTimers: (accountId: number) => touchAccountTimers(deps, accountId, () => heartbeat()),
  };
}
