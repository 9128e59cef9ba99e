import type { AppDeps } from "../src/deps";
import { attemptDelivery, markDeliveryFailed } from "../src/services/webhookDeliveries";
import type { AttemptInput } from "../src/temporal/contracts";
import { onDeliveryFailed } from "../src/services/deliveryFailures";

export function createWebhookDeliveryActivities({ knex, settings }: AppDeps) {
  return {
    attemptDelivery: (input: AttemptInput) => attemptDelivery(knex, settings.delivery, input),
    // One transaction: if the failure handling throws, the row stays pending and the activity's retry
    // does both again, instead of finding it already failed and skipping the handling.
    handleDeliveryFailure: (deliveryId: string) =>
      knex.transaction(async (trx) => {
        const delivery = await markDeliveryFailed(trx, deliveryId);
        if (delivery) await onDeliveryFailed(trx, delivery);
      }),
  };
}
