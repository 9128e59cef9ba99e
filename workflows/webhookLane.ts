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
import { DELIVER_SIGNAL, LIVE_SIGNAL_MAX, webhookDeliveryWorkflowId, type AttemptFailure, type LaneDelivery, type LaneInput } from "../src/temporal/contracts";
import { AccountIdAttribute, ConversationIdAttribute, EventNameAttribute, WebhookIdAttribute } from "../src/temporal/searchAttributes";
import { attemptAll } from "./deliveryAttempt";
import { webhookDeliveryWorkflow } from "./webhookDelivery";

export const deliverSignal = defineSignal<[LaneDelivery[]]>(DELIVER_SIGNAL);

const DEFAULT_CONCURRENCY = 32;
const DEFAULT_IDLE_MS = 60_000;
/**
 * How long a lane stays open after its span for hand-overs still addressed to it: by a relay whose
 * clock is behind, or one that took its batch just before the span ended. One that comes later still
 * starts the lane again.
 */
const SPAN_GRACE_MS = 5000;
/** Ids remembered for dropping repeats: far more than a relay ever re-sends after a crash. */
const RECENT_IDS = 5000;
/** History grows with every round of sends; past this a lane without a span starts a fresh run. */
const SENDS_PER_RUN = 2000;
/**
 * Every signal adds to the history, so a busy lane grows it fast. A signal that arrives while the
 * lane continues as new makes the server refuse that task, and the retry replays the whole history
 * while deliveries wait: a lane without a span (input.spanEnd) starts a fresh run well before the
 * server's suggested size of thousands of events; a lane of a span ends with it instead.
 */
const HISTORY_PER_RUN = 1000;
/** Deliveries one round takes, posted `concurrency` at a time by one activity. */
const ROUND_SIZE = 100;

/**
 * Sends every delivery handed to one target's lane (for one span of time, see webhookLaneWorkflowId),
 * up to `concurrency` at once, live ones (small signals) first and a backlog in arrival order. A send
 * that fails is handed to a webhookDeliveryWorkflow of its own
 * (`webhook-delivery-<installation>-<delivery id>`), which retries on the delivery's schedule, so a
 * failing receiver never holds up the lane and each failed delivery is visible and retryable on its
 * own in the Temporal UI.
 */
export async function webhookLaneWorkflow(input: LaneInput): Promise<{ sent: number; retrying: number }> {
  const queue = [...(input.queued ?? [])];
  const live: LaneDelivery[] = [];
  const waiting = () => live.length + queue.length;
  const recent = new Set(input.recent ?? []);
  setHandler(deliverSignal, (deliveries) => {
    const into = deliveries.length <= LIVE_SIGNAL_MAX ? live : queue;
    for (const delivery of deliveries) {
      if (recent.has(delivery.id)) continue;
      recent.add(delivery.id);
      into.push(delivery);
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
  const report = () => setCurrentDetails(`${input.target}: ${sent} delivered, ${retrying} retrying on their own, ${inFlight} sending, ${waiting()} queued`);

  // A lane of a span ends after it, so its history stays bounded without continuing as new.
  const spanEnd = input.spanEnd;
  const sendsPerRun = spanEnd === undefined ? SENDS_PER_RUN : Infinity;
  const idleMs = () => (spanEnd === undefined ? (input.idleMs ?? DEFAULT_IDLE_MS) : Math.max(spanEnd - Date.now(), 0) + (input.idleMs ?? SPAN_GRACE_MS));
  let started = 0;
  const runIsFull = () =>
    (spanEnd === undefined && (started >= SENDS_PER_RUN || workflowInfo().historyLength >= HISTORY_PER_RUN)) || workflowInfo().continueAsNewSuggested;
  const nextRound = () => {
    const round: LaneDelivery[] = [];
    while (waiting() > 0 && round.length < Math.min(ROUND_SIZE, sendsPerRun - started)) round.push((live.shift() ?? queue.shift())!);
    started += round.length;
    return round;
  };
  /** One activity for the round; a failed delivery goes on in a workflow of its own. */
  const send = async (round: LaneDelivery[], parallel: number) => {
    inFlight += round.length;
    report();
    const failures = await attemptAll({ deliveryIds: round.map((d) => d.id), timeoutMs: input.timeoutMs, parallel });
    inFlight -= round.length;
    const failed = round.filter((delivery) => failures[delivery.id]);
    sent += round.length - failed.length;
    retrying += failed.length;
    await Promise.all(failed.map((delivery) => retryOnItsOwn(input, delivery, failures[delivery.id]!)));
    report();
  };
  const carryOver = () => continueAsNew<typeof webhookLaneWorkflow>({ ...input, queued: [...live, ...queue], recent: [...recent] });

  // A round starts as soon as deliveries wait and fewer than `concurrency` POSTs are open, beside
  // the rounds under way: a delivery signalled during a round does not wait for that round's POSTs
  // and the workflow task after them.
  let posting = 0;
  const underWay = new Set<Promise<void>>();
  for (;;) {
    if (runIsFull()) {
      await Promise.all(underWay);
      return carryOver();
    }
    if (waiting() === 0) {
      if (underWay.size) await condition(() => waiting() > 0 || underWay.size === 0);
      else if (!(await condition(() => waiting() > 0, idleMs()))) break;
      continue;
    }
    if (posting >= concurrency) {
      await condition(() => posting < concurrency);
      continue;
    }
    const parallel = concurrency - posting;
    const round = nextRound();
    const slots = Math.min(round.length, parallel);
    posting += slots;
    const sending: Promise<void> = send(round, parallel).finally(() => {
      posting -= slots;
      underWay.delete(sending);
    });
    underWay.add(sending);
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
