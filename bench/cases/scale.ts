import { createInbox } from "../../test/support/conversationFactories";
import { createAccount } from "../../test/support/factories";
import { accountCall, deliveryIdsByMessage, fleetEnv, openConversation, startFleet } from "../../test/support/fleet";
import { startHarness, type Harness } from "../../test/support/harness";
import { createOwnDatabase } from "../../test/support/ownDatabase";
import { Receiver, type ReceivedRequest } from "../../test/support/receiver";
import { startRole, through, type RoleProcess } from "../../test/support/serviceProcesses";
import { formatMs, percentile } from "../stats";

/**
 * The chaos run of test/ops/scaleOut.test.ts at size: two API processes and two workers on one
 * database, `BENCH_SCALE_MESSAGES` (1000) incoming messages posted through both APIs, 16 in flight,
 * with one API and one worker SIGKILLed after the first third and started again while the other API
 * takes the second third. Prints the webhook deliveries: lost, duplicated, and late (arrived more
 * than `BENCH_SCALE_LATE_SECONDS`, 30, after the message's commit); all three should be zero.
 */
export async function run() {
  const total = Number(process.env.BENCH_SCALE_MESSAGES ?? 1000);
  const lateSeconds = Number(process.env.BENCH_SCALE_LATE_SECONDS ?? 30);
  const database = await createOwnDatabase("scale_bench");
  const h = await startHarness({ databaseUrl: database.url, poolMax: 3 });
  const receiver = await new Receiver().start();
  const env = fleetEnv(database.url);
  const fleet: { apis: RoleProcess[]; workers: RoleProcess[] } = { apis: [], workers: [] };
  try {
    Object.assign(fleet, await startFleet(env));
    const via = (i: number) => through(h, fleet.apis[i % fleet.apis.length]!.baseUrl!);
    const account = await createAccount(via(0));
    await accountCall(via(0), account, "POST", "/webhooks", { url: receiver.url, subscriptions: ["message_created"] });
    const inbox = await createInbox(via(0), account);
    const chats = await Promise.all(Array.from({ length: 20 }, (_, i) => openConversation(via(i), account, inbox.id)));

    const posted: number[] = [];
    const postRange = (from: number, to: number, pick: (i: number) => Harness) =>
      inTurn(from, to, 16, async (i) => {
        const message = await accountCall(pick(i), account, "POST", `/conversations/${chats[i % chats.length]}/messages`, {
          content: `scale ${i}`,
          message_type: "incoming",
        });
        posted.push(message.id as number);
      });
    const third = Math.floor(total / 3);
    const started = Date.now();
    await postRange(0, third, via);
    // Nothing is in flight to the API killed: a request it took but never answered could not be retried safely.
    await Promise.all([fleet.apis[0]!.kill("SIGKILL"), fleet.workers[0]!.kill("SIGKILL")]);
    const survivor = through(h, fleet.apis[1]!.baseUrl!);
    const [[api, worker]] = await Promise.all([Promise.all([startRole("api", env), startRole("worker", env)]), postRange(third, 2 * third, () => survivor)]);
    fleet.apis[0] = api;
    fleet.workers[0] = worker;
    await postRange(2 * third, total, via);
    const postingMs = Date.now() - started;

    const wanted = new Set(posted);
    const arrived = (requests: ReceivedRequest[]) => new Set(requests.map((r) => r.body?.id).filter((id) => wanted.has(id))).size;
    await receiver.waitFor((requests) => arrived(requests) >= wanted.size, (lateSeconds + 120) * 1000).catch(() => undefined);
    // Time for a repeated delivery to arrive, were there one.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const committed = new Map<number, number>(
      (await h.knex("messages").whereIn("id", posted).select("id", "created_at")).map((row: { id: number; created_at: Date }) => [
        row.id,
        new Date(row.created_at).getTime(),
      ]),
    );
    const figures = tally(receiver.requests, wanted, committed, lateSeconds * 1000);
    console.log(
      `posted ${posted.length} messages through 2 API processes in ${(postingMs / 1000).toFixed(1)} s ` +
        `(${((posted.length * 1000) / postingMs).toFixed(1)} messages/s, 16 in flight; an API and a worker SIGKILLed and restarted after ${third})`,
    );
    console.log(
      `webhook deliveries received ${figures.requests} (for ${figures.delivered} messages; ${figures.resent} sent again under their id): ` +
        `lost ${figures.lost}, duplicated ${figures.duplicated}, late ${figures.late} (over ${lateSeconds} s)`,
    );
    console.log(
      `commit-to-arrival latency p50 ${formatMs(percentile(figures.latencies, 50))}, p99 ${formatMs(percentile(figures.latencies, 99))}, ` +
        `max ${formatMs(Math.max(...figures.latencies))}`,
    );
    if (figures.lost + figures.duplicated > 0) for (const p of [...fleet.apis, ...fleet.workers]) console.error(`--- ${p.role} ---\n${p.output()}`);
  } finally {
    await Promise.all([...fleet.apis, ...fleet.workers].map((p) => p.stop()));
    await receiver.stop();
    await h.close();
    await database.drop();
  }
}

/** Runs `task(i)` for i in [from, to), `inFlight` at a time. */
async function inTurn(from: number, to: number, inFlight: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < to) await task(next++);
    }),
  );
}

/**
 * The deliveries of the wanted messages. Lost: never delivered. Duplicated: delivered under more than
 * one delivery id, or sharing its delivery id with another message. Late: first arrival more than
 * `lateMs` after the commit. A delivery sent again under its own id is at-least-once, counted apart.
 */
function tally(requests: readonly ReceivedRequest[], wanted: Set<number>, committed: Map<number, number>, lateMs: number) {
  const ours = requests.filter((r) => r.body?.event === "message_created" && wanted.has(r.body.id));
  const byMessage = deliveryIdsByMessage(ours);
  const messagesByDelivery = new Map<string, Set<number>>();
  for (const [messageId, deliveryIds] of byMessage)
    for (const deliveryId of deliveryIds) messagesByDelivery.set(deliveryId, (messagesByDelivery.get(deliveryId) ?? new Set()).add(messageId));
  const shared = new Set([...messagesByDelivery.values()].filter((ids) => ids.size > 1).flatMap((ids) => [...ids]));
  const duplicated = [...byMessage].filter(([id, deliveryIds]) => deliveryIds.size > 1 || shared.has(id)).length;
  const firstArrival = new Map<number, number>();
  for (const r of ours) firstArrival.set(r.body.id, Math.min(firstArrival.get(r.body.id) ?? Infinity, r.receivedAt));
  const latencies = [...firstArrival].map(([id, at]) => at - committed.get(id)!);
  const distinctSends = [...byMessage.values()].reduce((sum, ids) => sum + ids.size, 0);
  return {
    requests: ours.length,
    delivered: byMessage.size,
    resent: ours.length - distinctSends,
    lost: wanted.size - byMessage.size,
    duplicated,
    late: latencies.filter((ms) => ms > lateMs).length,
    latencies,
  };
}
