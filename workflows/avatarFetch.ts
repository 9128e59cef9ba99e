import { ActivityFailure, proxyActivities } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { AvatarFetchInput } from "../src/temporal/contracts";

const { fetchAvatar } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "5 seconds", backoffCoefficient: 3, maximumInterval: "5 minutes", maximumAttempts: 4, nonRetryableErrorTypes: ["AvatarRefused"] },
});
const { markAvatarFetchFailed } = proxyActivities<Activities>({ startToCloseTimeout: "30 seconds" });

/** Fetches an avatar_url's image; a URL that never yields one leaves the record as it was (the request had long succeeded). */
export async function avatarFetchWorkflow(input: AvatarFetchInput): Promise<{ stored: boolean }> {
  try {
    return await fetchAvatar(input);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await markAvatarFetchFailed(input);
    return { stored: false };
  }
}
