import {
  condition,
  continueAsNew,
  defineSignal,
  ParentClosePolicy,
  setCurrentDetails,
  setHandler,
  startChild,
  workflowInfo,
  WorkflowIdReusePolicy,
} from "@temporalio/workflow";
import { DELIVER_SIGNAL, webhookDeliveryWorkflowId, type AttemptFailure, type LaneDelivery, type LaneInput } from "../src/temporal/contracts";
import { AccountIdAttribute, ConversationIdAttribute, EventNameAttribute, WebhookIdAttribute } from "../src/temporal/searchAttributes";
import { attempt } from "./deliveryAttempt";
import { webhookDeliveryWorkflow } from "./webhookDelivery";

export const deliverSignal = defineSignal<[LaneDelivery[]]>(DELIVER_SIGNAL);

const DEFAULT_CONCURRENCY = 32;
const DEFAULT_IDLE_MS = 60_000;
/** Ids remembered for dropping repeats: far more than a relay ever re-sends after a crash. */
const RECENT_IDS = 5000;
/** Each send is a marker in the history; past this the lane starts a fresh run. */
const SENDS_PER_RUN = 2000;

/**
 * Sends every delivery of one target, in arrival order with up to `concurrency` at once. A send
 * that fails is handed to a webhookDeliveryWorkflow of its own (`webhook-delivery-<installation>-
 * <delivery id>`), which retries on the delivery's schedule, so a failing receiver never holds up
 * the lane and each failed delivery is visible and retryable on its own in the Temporal UI.
 */
export async function webhookLaneWorkflow(input: LaneInput): Promise<{ sent: number; retrying: number }> {
  const queue = [...(input.queued ?? [])];
  const recent = new Set(input.recent ?? []);
  setHandler(deliverSignal, (deliveries) => {
    for (const delivery of deliveries) {
      if (recent.has(delivery.id)) continue;
      recent.add(delivery.id);
      queue.push(delivery);
    }
    // A Set keeps insertion order: forget the oldest first.
    for (const old of recent) {
      if (recent.size <= RECENT_IDS) break;
      recent.delete(old);
    }
  });

  const concurrency = input.concurrency ?? DEFAULT_CONCURRENCY;
  let inFlight = 0;
  let sent = 0;
  let retrying = 0;
  const report = () => setCurrentDetails(`${input.target}: ${sent} delivered, ${retrying} retrying on their own, ${inFlight} sending, ${queue.length} queued`);

  const send = async (delivery: LaneDelivery) => {
    const failure = await attempt(delivery.id, input.timeoutMs);
    if (!failure) sent++;
    else {
      retrying++;
      await retryOnItsOwn(input, delivery, failure);
    }
  };

  let started = 0;
  for (;;) {
    if (queue.length === 0 && inFlight === 0) {
      // Nothing to do: wait a while for more, else end (the next signal starts the lane again).
      if (!(await condition(() => queue.length > 0, input.idleMs ?? DEFAULT_IDLE_MS))) break;
    }
    await condition(() => (queue.length > 0 && inFlight < concurrency) || (queue.length === 0 && inFlight === 0));
    while (queue.length > 0 && inFlight < concurrency && started < SENDS_PER_RUN) {
      const delivery = queue.shift()!;
      inFlight++;
      started++;
      void send(delivery).finally(() => {
        inFlight--;
        report();
      });
    }
    report();
    if (started >= SENDS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await condition(() => inFlight === 0);
      return continueAsNew<typeof webhookLaneWorkflow>({ ...input, queued: queue, recent: [...recent] });
    }
  }
  return { sent, retrying };
}

/** Starts the failed delivery's own workflow, which goes on from this attempt. */
async function retryOnItsOwn(input: LaneInput, delivery: LaneDelivery, failure: AttemptFailure): Promise<void> {
  try {
    await startChild(webhookDeliveryWorkflow, {
      workflowId: webhookDeliveryWorkflowId(input.installationId, delivery.id),
      args: [{ deliveryId: delivery.id, schedule: input.schedule, timeoutMs: input.timeoutMs, firstFailure: failure }],
      // The lane moves on and may end or continue as new long before the retries do.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: AccountIdAttribute, value: input.accountId },
        { key: EventNameAttribute, value: delivery.eventName },
        ...(input.webhookId ? [{ key: WebhookIdAttribute, value: input.webhookId }] : []),
        ...(delivery.conversationId ? [{ key: ConversationIdAttribute, value: delivery.conversationId }] : []),
      ],
      staticSummary: `${delivery.eventName} → ${input.target}${delivery.conversationId ? `, conversation #${delivery.conversationId}` : ""}: retries after "${failure.reason}"`,
    });
  } catch (err) {
    // Already handed over by an earlier run of this lane: the retries are in hand.
    if ((err as Error).name !== "WorkflowExecutionAlreadyStartedError") throw err;
  }
}
