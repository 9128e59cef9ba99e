import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities, setCurrentDetails, sleep, TemporalFailure } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { DeliveryWorkflowInput } from "../src/services/webhookDeliveries";

/**
 * Delivers one event to one target. The retry loop lives here rather than in the activity's retry
 * policy so the workflow's details in the Temporal UI always say which attempt this is, how the last
 * one failed and when the next one runs; each attempt is one activity in the history.
 * When the window closes or the receiver refuses for good, the delivery is marked failed and the
 * target's failure handling runs (failed message for API inboxes, reopened conversation for bots).
 */
export async function webhookDeliveryWorkflow(input: DeliveryWorkflowInput): Promise<"delivered" | "failed"> {
  const { schedule, deliveryId } = input;
  // A local activity: one POST of a few seconds at most needs no task queue round trip, so a
  // delivery that succeeds at once costs the server a single workflow task.
  const { attemptDelivery } = proxyLocalActivities<Activities>({
    startToCloseTimeout: input.timeoutMs + 10_000,
    retry: { maximumAttempts: 1 },
  });
  const { handleDeliveryFailure } = proxyActivities<Activities>({
    startToCloseTimeout: "30 seconds",
    retry: { maximumInterval: "1 minute" },
  });

  const startedAt = Date.now();
  let waitMs = schedule.initialIntervalMs;
  for (let attempt = 1; ; attempt++) {
    setCurrentDetails(`Delivery ${deliveryId}: attempt ${attempt} sending`);
    try {
      await attemptDelivery(input);
      setCurrentDetails(`Delivery ${deliveryId}: delivered on attempt ${attempt}`);
      return "delivered";
    } catch (err) {
      // A failed attempt may arrive wrapped in an ActivityFailure or as its cause itself; anything
      // that is not a Temporal failure is a bug in this workflow and must fail the task, not the delivery.
      const failure = err instanceof ActivityFailure ? (err.cause ?? err) : err;
      if (!(failure instanceof TemporalFailure)) throw err;
      const reason = failure.message;
      const permanent = failure instanceof ApplicationFailure && failure.nonRetryable;
      const windowLeftMs = schedule.windowMs - (Date.now() - startedAt);
      if (permanent || waitMs > windowLeftMs) {
        setCurrentDetails(`Delivery ${deliveryId}: failed after ${attempt} attempt(s): ${reason}`);
        await handleDeliveryFailure(deliveryId);
        return "failed";
      }
      setCurrentDetails(
        `Delivery ${deliveryId}: attempt ${attempt} failed (${reason}); attempt ${attempt + 1} at ${new Date(Date.now() + waitMs).toISOString()}`,
      );
      await sleep(waitMs);
      waitMs = Math.min(waitMs * schedule.backoffCoefficient, schedule.maximumIntervalMs);
    }
  }
}
