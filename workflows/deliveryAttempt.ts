import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities, TemporalFailure } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { AttemptFailure, AttemptsInput } from "../src/temporal/contracts";

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

/**
 * A lane's round of POSTs as one activity (not a local one: a workflow task stays open while a local
 * activity runs, and signals wait for it, so new deliveries could not reach the lane meanwhile).
 * Answers the failures by delivery id. If the activity itself fails (the database is down, say),
 * every delivery of the round failed for that reason and retries on its own.
 */
export async function attemptAll(input: AttemptsInput): Promise<Record<string, AttemptFailure>> {
  const { attemptDeliveries } = proxyActivities<Activities>({ startToCloseTimeout: input.timeoutMs + 10_000, retry: { maximumAttempts: 1 } });
  try {
    return await attemptDeliveries(input);
  } catch (err) {
    const failure = err instanceof ActivityFailure ? (err.cause ?? err) : err;
    if (!(failure instanceof TemporalFailure)) throw err;
    return Object.fromEntries(input.deliveryIds.map((id) => [id, { reason: failure.message, permanent: false }]));
  }
}
