import { ActivityFailure, proxyActivities, setCurrentDetails } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { DeliveryWorkflowInput } from "../src/services/webhookDeliveries";

/**
 * Delivers one event to one target. Attempts are Temporal activity retries on the delivery's
 * schedule (exponential backoff within a window); the UI shows the pending attempt and its last error.
 * When the window closes or the receiver refuses for good, the delivery is marked failed and the
 * target's failure handling runs (failed message for API inboxes, reopened conversation for bots).
 */
export async function webhookDeliveryWorkflow(input: DeliveryWorkflowInput): Promise<"delivered" | "failed"> {
  const { schedule } = input;
  const { attemptDelivery } = proxyActivities<Activities>({
    startToCloseTimeout: input.timeoutMs + 10_000,
    scheduleToCloseTimeout: schedule.windowMs,
    retry: {
      initialInterval: schedule.initialIntervalMs,
      backoffCoefficient: schedule.backoffCoefficient,
      maximumInterval: schedule.maximumIntervalMs,
      nonRetryableErrorTypes: ["PermanentDeliveryFailure"],
    },
  });
  const { handleDeliveryFailure } = proxyActivities<Activities>({
    startToCloseTimeout: "30 seconds",
    retry: { maximumInterval: "1 minute" },
  });

  setCurrentDetails(`Delivery ${input.deliveryId}: sending`);
  try {
    await attemptDelivery(input);
    setCurrentDetails(`Delivery ${input.deliveryId}: delivered`);
    return "delivered";
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    setCurrentDetails(`Delivery ${input.deliveryId}: failed (${err.cause?.message ?? err.message})`);
    await handleDeliveryFailure(input.deliveryId);
    return "failed";
  }
}
