import { proxyActivities } from "@temporalio/workflow";
import type { Activities } from "../activities";

const { touchAccountTimers } = proxyActivities<Activities>({
  startToCloseTimeout: "30 minutes",
  heartbeatTimeout: "1 minute",
  retry: { maximumInterval: "1 minute" },
});

/** After an account's auto-resolve settings change, every open or snoozed conversation re-plans its timer. */
export async function accountTimersWorkflow(accountId: number): Promise<number> {
  return touchAccountTimers(accountId);
}
