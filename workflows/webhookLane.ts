import {
  condition,
  continueAsNew,
  defineSignal,
  ParentClosePolicy,
  patched,
  setCurrentDetails,
  setHandler,
  startChild,
  workflowInfo,
  WorkflowIdReusePolicy,
} from "@temporalio/workflow";
import { DELIVER_SIGNAL, webhookDeliveryWorkflowId, type AttemptFailure, type LaneDelivery, type LaneInput } from "../src/temporal/contracts";
import { AccountIdAttribute, ConversationIdAttribute, EventNameAttribute, WebhookIdAttribute } from "../src/temporal/searchAttributes";
import { attempt, attemptAll } from "./deliveryAttempt";
import { webhookDeliveryWorkflow } from "./webhookDelivery";

export const deliverSignal = defineSignal<[LaneDelivery[]]>(DELIVER_SIGNAL);

const DEFAULT_CONCURRENCY = 32;
const DEFAULT_IDLE_MS = 60_000;
/**
 * Ids remembered for dropping repeats: far more than a relay re-sends after a crash (one batch), and
 * a repeat beyond them is still not posted twice (an attempt skips a delivered delivery). They ride
 * in every continue-as-new's input, and a busy lane switches runs about once a second.
 */
const RECENT_IDS = 1000;
/** Runs recorded before SHORT_RUNS_PATCH remembered this many. */
const RECENT_IDS_BEFORE = 5000;
/** History grows with every send (a marker each in old runs, a round per ROUND_SIZE now); past this the lane starts a fresh run. */
const SENDS_PER_RUN = 2000;
/**
 * A signal with at most this many deliveries carries events as they happen; a larger one is a
 * backlog (a burst, a relay catching up). Live deliveries go out before any backlog left.
 */
const LIVE_SIGNAL_MAX = 20;
/**
 * Every signal adds to the history, so a busy lane grows it fast. A signal that arrives while the
 * lane continues as new makes the server refuse that task, and the retry replays the whole history
 * while deliveries wait (and signals arriving meanwhile can refuse it again). A replay costs in
 * proportion to the history: at 1,000 events a switch held new deliveries for one to two seconds, at
 * 200 for a few hundred milliseconds, so a busy lane now switches often and cheaply.
 */
const HISTORY_PER_RUN = 200;
/** Runs recorded before SHORT_RUNS_PATCH continued as new at this length. */
const HISTORY_PER_RUN_BEFORE = 1000;
const SHORT_RUNS_PATCH = "webhook-lane-short-runs";
/** Deliveries one round takes, posted `concurrency` at a time by one activity. */
const ROUND_SIZE = 100;
/** Runs recorded before sends went in rounds replay without them (README: changing a workflow). */
export const LANE_ROUNDS_PATCH = "webhook-lane-rounds";

/**
 * Sends every delivery of one target, up to `concurrency` at once, live ones (small signals) first
 * and a backlog in arrival order. A send that fails is handed to a webhookDeliveryWorkflow of its
 * own (`webhook-delivery-<installation>-<delivery id>`), which retries on the delivery's schedule, so
 * a failing receiver never holds up the lane and each failed delivery is visible and retryable on
 * its own in the Temporal UI.
 */
export async function webhookLaneWorkflow(input: LaneInput): Promise<{ sent: number; retrying: number }> {
  const rounds = patched(LANE_ROUNDS_PATCH);
  const shortRuns = rounds && patched(SHORT_RUNS_PATCH);
  const recentLimit = shortRuns ? RECENT_IDS : RECENT_IDS_BEFORE;
  const queue = [...(input.queued ?? [])];
  const live: LaneDelivery[] = [];
  const waiting = () => live.length + queue.length;
  const recent = new Set(input.recent ?? []);
  setHandler(deliverSignal, (deliveries) => {
    const into = rounds && deliveries.length <= LIVE_SIGNAL_MAX ? live : queue;
    for (const delivery of deliveries) {
      if (recent.has(delivery.id)) continue;
      recent.add(delivery.id);
      into.push(delivery);
    }
    // A Set keeps insertion order: forget the oldest first.
    for (const old of recent) {
      if (recent.size <= recentLimit) break;
      recent.delete(old);
    }
  });

  const concurrency = input.concurrency ?? DEFAULT_CONCURRENCY;
  let inFlight = 0;
  let sent = 0;
  let retrying = 0;
  const report = () => setCurrentDetails(`${input.target}: ${sent} delivered, ${retrying} retrying on their own, ${inFlight} sending, ${waiting()} queued`);

  if (rounds) {
    const historyPerRun = shortRuns ? HISTORY_PER_RUN : HISTORY_PER_RUN_BEFORE;
    // Sends go in rounds, one activity each; deliveries signalled during a round join the next one.
    let started = 0;
    for (;;) {
      if (waiting() === 0 && !(await condition(() => waiting() > 0, input.idleMs ?? DEFAULT_IDLE_MS))) break;
      const round: LaneDelivery[] = [];
      while (waiting() > 0 && round.length < Math.min(ROUND_SIZE, SENDS_PER_RUN - started)) round.push((live.shift() ?? queue.shift())!);
      started += round.length;
      inFlight = round.length;
      report();
      const failures = await attemptAll({ deliveryIds: round.map((d) => d.id), timeoutMs: input.timeoutMs, parallel: concurrency });
      inFlight = 0;
      const failed = round.filter((delivery) => failures[delivery.id]);
      sent += round.length - failed.length;
      retrying += failed.length;
      await Promise.all(failed.map((delivery) => retryOnItsOwn(input, delivery, failures[delivery.id]!)));
      report();
      if (started >= SENDS_PER_RUN || workflowInfo().historyLength >= historyPerRun || workflowInfo().continueAsNewSuggested) {
        return continueAsNew<typeof webhookLaneWorkflow>({ ...input, queued: [...live, ...queue], recent: [...recent] });
      }
    }
    return { sent, retrying };
  }

  // Runs recorded before LANE_ROUNDS_PATCH: one local activity per delivery, refilled as each ends
  // (which held signals back while any ran).
  // Drop with deprecatePatch once no such run can be open (a lane lives at most SENDS_PER_RUN sends or its idle time).
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
