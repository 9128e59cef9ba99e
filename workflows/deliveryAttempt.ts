import { ActivityFailure, ApplicationFailure, proxyLocalActivities, TemporalFailure } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { AttemptFailure } from "../src/temporal/contracts";

/**
 * One POST of a delivery, as a local activity: a few seconds at most needs no task queue round
 * trip. Answers the failure instead of throwing it; anything that is not a Temporal failure is a bug
 * in the calling workflow and is rethrown, so it fails the task rather than the delivery.
 */
export async function attempt(deliveryId: string, timeoutMs: number): Promise<AttemptFailure | undefined> {
  const { attemptDelivery } = proxyLocalActivities<Activities>({ startToCloseTimeout: timeoutMs + 10_000, retry: { maximumAttempts: 1 } });
  try {
    await attemptDelivery({ deliveryId, timeoutMs });
    return undefined;
  } catch (err) {
    // A failed attempt may arrive wrapped in an ActivityFailure or as its cause itself.
    const failure = err instanceof ActivityFailure ? (err.cause ?? err) : err;
    if (!(failure instanceof TemporalFailure)) throw err;
    return { reason: failure.message, permanent: failure instanceof ApplicationFailure && failure.nonRetryable === true };
  }
}
