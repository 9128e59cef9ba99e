import type { AppDeps } from "../src/deps";
import { attemptDelivery, loadDeliveryConfig, markDeliveryFailed, type DeliveryWorkflowInput } from "../src/services/webhookDeliveries";
import { onDeliveryFailed } from "../src/services/deliveryFailures";

export function createWebhookDeliveryActivities({ knex }: AppDeps) {
  const config = loadDeliveryConfig();
  return {
    attemptDelivery: (input: DeliveryWorkflowInput) => attemptDelivery(knex, config, input),
    handleDeliveryFailure: async (deliveryId: string) => {
      const delivery = await markDeliveryFailed(knex, deliveryId);
      if (delivery) await onDeliveryFailed(knex, delivery);
    },
  };
}
