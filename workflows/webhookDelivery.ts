import { proxyActivities, setCurrentDetails, sleep } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { DeliveryWorkflowInput } from "../src/temporal/contracts";
import { attempt } from "./deliveryAttempt";

/**
 * Delivers one event to one target until it arrives or its retry window closes: a delivery whose
 * first attempt in its target's lane failed, or a redelivery an operator asked for. The retry loop
 * lives here rather than in the activity's retry policy so the workflow's details in the Temporal UI
 * always say which attempt this is, how the last one failed and when the next one runs; each attempt
 * is one activity in the history. When the window closes or the receiver refuses for good, the
 * delivery is marked failed and the target's failure handling runs (failed message for API inboxes,
 * reopened conversation for bots).
 */
export async function webhookDeliveryWorkflow(input: DeliveryWorkflowInput): Promise<"delivered" | "failed"> {
  const { schedule, deliveryId } = input;
  const { handleDeliveryFailure } = proxyActivities<Activities>({
    startToCloseTimeout: "30 seconds",
    retry: { maximumInterval: "1 minute" },
  });

  const startedAt = Date.now();
  let waitMs = schedule.initialIntervalMs;
  let failure = input.firstFailure;
  for (let number = 1; ; number++) {
    if (!failure || number > 1) {
      setCurrentDetails(`Delivery ${deliveryId}: attempt ${number} sending`);
      failure = await attempt(deliveryId, input.timeoutMs);
      if (!failure) {
        setCurrentDetails(`Delivery ${deliveryId}: delivered on attempt ${number}`);
        return "delivered";
      }
    }
    const windowLeftMs = schedule.windowMs - (Date.now() - startedAt);
    if (failure.permanent || waitMs > windowLeftMs) {
      setCurrentDetails(`Delivery ${deliveryId}: failed after ${number} attempt(s): ${failure.reason}`);
      await handleDeliveryFailure(deliveryId);
      return "failed";
    }
    setCurrentDetails(
      `Delivery ${deliveryId}: attempt ${number} failed (${failure.reason}); attempt ${number + 1} at ${new Date(Date.now() + waitMs).toISOString()}`,
    );
    await sleep(waitMs);
    waitMs = Math.min(waitMs * schedule.backoffCoefficient, schedule.maximumIntervalMs);
  }
}
