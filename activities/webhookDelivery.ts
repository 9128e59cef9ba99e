import { ApplicationFailure } from "@temporalio/common";
import type { AppDeps } from "../src/deps";
import { attemptDeliveries } from "../src/webhooks/attempt";
import { markDeliveryFailed } from "../src/webhooks/results";
import type { AttemptFailure, AttemptInput, AttemptsInput } from "../src/temporal/contracts";
import { onDeliveryFailed } from "../src/webhooks/deliveryFailures";

/** The failure type that tells Temporal to stop retrying a delivery. */
export const PERMANENT_FAILURE = "PermanentDeliveryFailure";

export function createWebhookDeliveryActivities({ knex, settings }: AppDeps) {
  const config = settings.delivery;
  return {
    /** One attempt; a failure is thrown, so the delivery's workflow retries it on its schedule (or stops, for a permanent one). */
    async attemptDelivery({ deliveryId, timeoutMs }: AttemptInput): Promise<{ status: number }> {
      const outcome = (await attemptDeliveries(knex, config, [deliveryId], { timeoutMs })).get(deliveryId)!;
      if (outcome.ok) return { status: outcome.status };
      throw outcome.permanent
        ? ApplicationFailure.nonRetryable(outcome.reason, PERMANENT_FAILURE)
        : ApplicationFailure.retryable(outcome.reason, "DeliveryFailed");
    },
    /** A lane's round: the failures, by delivery id (every other delivery went through). */
    async attemptDeliveries({ deliveryIds, timeoutMs, parallel }: AttemptsInput): Promise<Record<string, AttemptFailure>> {
      const outcomes = await attemptDeliveries(knex, config, deliveryIds, { timeoutMs, parallel });
      return Object.fromEntries([...outcomes].flatMap(([id, outcome]) => (outcome.ok ? [] : [[id, { reason: outcome.reason, permanent: outcome.permanent }]])));
    },
    // One transaction: if the failure handling throws, the row stays pending and the activity's retry
    // does both again, instead of finding it already failed and skipping the handling.
    handleDeliveryFailure: (deliveryId: string) =>
      knex.transaction(async (trx) => {
        const delivery = await markDeliveryFailed(trx, deliveryId);
        if (delivery) await onDeliveryFailed(trx, delivery);
      }),
  };
}
