import { heartbeat } from "@temporalio/activity";
import type { AppDeps } from "../src/deps";
import { sweepConversationTimers } from "../src/services/autoResolve";
import { touchAccountTimers } from "../src/services/conversationTimers";

export function createConversationTimerActivities(deps: AppDeps) {
  return {
    sweepConversationTimers: () => sweepConversationTimers(deps.knex),
    touchAccountTimers: (accountId: number) => touchAccountTimers(deps, accountId, () => heartbeat()),
  };
}
