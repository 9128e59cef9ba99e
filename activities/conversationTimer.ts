import { heartbeat } from "@temporalio/activity";
import type { AppDeps } from "../src/deps";
import { sweepConversationTimers } from "../src/conversations/autoResolve";
import { touchAccountTimers } from "../src/conversations/timers";

export function createConversationTimerActivities(deps: AppDeps) {
  return {
    sweepConversationTimers: () => sweepConversationTimers(deps.knex),
    touchAccountTimers: (accountId: number) => touchAccountTimers(deps, accountId, () => heartbeat()),
  };
}
