import type { TestAccount } from "./factories";
import { accountCall, deliveryIdsByMessage, type Fleet } from "./fleet";
import type { Harness } from "./harness";
import type { ReceivedRequest } from "./receiver";
import { startRoles, through } from "./serviceProcesses";

/*
 * The chaos run test/ops/scaleOut.test.ts and the `scale` bench case share: incoming messages posted
 * through two API processes while an API and a worker are SIGKILLed and started again, and what a
 * webhook receiver got for them.
 */

/** Requests in flight while posting: enough to keep both APIs busy, few enough for a 2-core machine. */
export const CHAOS_IN_FLIGHT = 16;

export interface ChaosHooks {
  /** Runs once the first third is posted, before the kill (timers to fall due while a worker is down, say). */
  afterFirstThird?: () => Promise<void>;
  /** Runs beside the posting of the last third (a rolling restart, say). */
  duringLastThird?: () => Promise<void>;
}

/**
 * Posts `total` messages, CHAOS_IN_FLIGHT at a time, `post(via, i)` posting the i-th through `via` and
 * answering its id: the first third through both APIs; then the first API and the first worker are
 * SIGKILLed, and started again (in their slots of `fleet`) while the other API takes the second third;
 * the rest through both again. Answers the messages' ids and the posting time.
 */
export async function postThroughChaos(
  h: Harness,
  fleet: Fleet,
  total: number,
  post: (via: Harness, i: number) => Promise<number>,
  hooks: ChaosHooks = {},
): Promise<{ posted: number[]; postingMs: number; third: number }> {
  const posted: number[] = [];
  const postRange = (from: number, to: number, pick: (i: number) => Harness) =>
    inTurn(from, to, CHAOS_IN_FLIGHT, async (i) => {
      posted.push(await post(pick(i), i));
    });
  const either = (i: number) => through(h, fleet.apis[i % fleet.apis.length]!.baseUrl!);
  const third = Math.floor(total / 3);
  const started = Date.now();
  await postRange(0, third, either);
  await hooks.afterFirstThird?.();
  // Nothing is in flight to the API killed: a request it took but never answered could not be retried safely.
  await Promise.all([fleet.apis[0]!.kill("SIGKILL"), fleet.workers[0]!.kill("SIGKILL")]);
  const survivor = through(h, fleet.apis[1]!.baseUrl!);
  const [[api, worker]] = await Promise.all([startRoles(["api", "worker"], fleet.env), postRange(third, 2 * third, () => survivor)]);
  fleet.apis[0] = api!;
  fleet.workers[0] = worker!;
  await Promise.all([postRange(2 * third, total, either), hooks.duringLastThird?.()]);
  return { posted, postingMs: Date.now() - started, third };
}

/** Posts an incoming message into a conversation (display id) of the account; answers its id. */
export async function postIncoming(via: Harness, account: TestAccount, conversation: number, content: string): Promise<number> {
  const message = await accountCall(via, account, "POST", `/conversations/${conversation}/messages`, { content, message_type: "incoming" });
  return message.id as number;
}

/** Runs `task(i)` for i in [from, to), `inFlight` at a time. */
export async function inTurn(from: number, to: number, inFlight: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < to) await task(next++);
    }),
  );
}

export interface DeliveryTally {
  /** Requests the receiver got for the wanted messages, repeats included. */
  requests: number;
  /** Wanted messages delivered at least once. */
  delivered: number;
  /** Requests that repeated a delivery under its own id (at-least-once, not a duplicate). */
  resent: number;
  /** Wanted messages never delivered. */
  lost: number;
  /** Wanted messages delivered under more than one delivery id, or sharing their delivery id with another message. */
  duplicated: number;
  /** Each delivered message's first arrival (ms since the epoch). */
  firstArrival: Map<number, number>;
}

/** The `message_created` deliveries a receiver got for the wanted message ids. */
export function tallyDeliveries(requests: readonly ReceivedRequest[], wanted: ReadonlySet<number>): DeliveryTally {
  const ours = requests.filter((r) => r.body?.event === "message_created" && wanted.has(r.body.id));
  const byMessage = deliveryIdsByMessage(ours);
  const messagesByDelivery = new Map<string, Set<number>>();
  for (const [messageId, deliveryIds] of byMessage)
    for (const deliveryId of deliveryIds) messagesByDelivery.set(deliveryId, (messagesByDelivery.get(deliveryId) ?? new Set()).add(messageId));
  const shared = new Set([...messagesByDelivery.values()].filter((ids) => ids.size > 1).flatMap((ids) => [...ids]));
  const firstArrival = new Map<number, number>();
  for (const r of ours) firstArrival.set(r.body.id, Math.min(firstArrival.get(r.body.id) ?? Infinity, r.receivedAt));
  const distinctSends = [...byMessage.values()].reduce((sum, ids) => sum + ids.size, 0);
  return {
    requests: ours.length,
    delivered: byMessage.size,
    resent: ours.length - distinctSends,
    lost: wanted.size - byMessage.size,
    duplicated: [...byMessage].filter(([id, deliveryIds]) => deliveryIds.size > 1 || shared.has(id)).length,
    firstArrival,
  };
}
