import { CHAOS_IN_FLIGHT, postIncoming, postThroughChaos, tallyDeliveries } from "../../test/support/chaos";
import { createInbox } from "../../test/support/conversationFactories";
import { createAccount } from "../../test/support/factories";
import { accountCall, fleetEnv, openConversation, startFleet, type Fleet } from "../../test/support/fleet";
import { startHarness } from "../../test/support/harness";
import { createOwnDatabase } from "../../test/support/ownDatabase";
import { Receiver, type ReceivedRequest } from "../../test/support/receiver";
import { through } from "../../test/support/serviceProcesses";
import { formatMs, percentile } from "../stats";

/**
 * The chaos run of test/ops/scaleOut.test.ts at size (test/support/chaos.ts): two API processes and
 * two workers on one database, `BENCH_SCALE_MESSAGES` (1000) incoming messages posted through both
 * APIs, with one API and one worker SIGKILLed after the first third and started again while the
 * other API takes the second third. Prints the webhook deliveries: lost, duplicated, and late
 * (arrived more than `BENCH_SCALE_LATE_SECONDS`, 30, after the message's commit); all three should be zero.
 */
export async function run() {
  const total = Number(process.env.BENCH_SCALE_MESSAGES ?? 1000);
  const lateSeconds = Number(process.env.BENCH_SCALE_LATE_SECONDS ?? 30);
  const database = await createOwnDatabase("scale_bench");
  const h = await startHarness({ databaseUrl: database.url, poolMax: 3 });
  const receiver = await new Receiver().start();
  const fleet: Fleet = { apis: [], workers: [], env: fleetEnv(database.url) };
  try {
    Object.assign(fleet, await startFleet(fleet.env));
    const via = (i: number) => through(h, fleet.apis[i % fleet.apis.length]!.baseUrl!);
    const account = await createAccount(via(0));
    await accountCall(via(0), account, "POST", "/webhooks", { url: receiver.url, subscriptions: ["message_created"] });
    const inbox = await createInbox(via(0), account);
    const chats = await Promise.all(Array.from({ length: 20 }, (_, i) => openConversation(via(i), account, inbox.id)));

    const { posted, postingMs, third } = await postThroughChaos(h, fleet, total, (via, i) =>
      postIncoming(via, account, chats[i % chats.length]!, `scale ${i}`),
    );
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
    const figures = tallyDeliveries(receiver.requests, wanted);
    const latencies = [...figures.firstArrival].map(([id, at]) => at - committed.get(id)!);
    const late = latencies.filter((ms) => ms > lateSeconds * 1000).length;
    console.log(
      `posted ${posted.length} messages through 2 API processes in ${(postingMs / 1000).toFixed(1)} s ` +
        `(${((posted.length * 1000) / postingMs).toFixed(1)} messages/s, ${CHAOS_IN_FLIGHT} in flight; an API and a worker SIGKILLed and restarted after ${third})`,
    );
    console.log(
      `webhook deliveries received ${figures.requests} (for ${figures.delivered} messages; ${figures.resent} sent again under their id): ` +
        `lost ${figures.lost}, duplicated ${figures.duplicated}, late ${late} (over ${lateSeconds} s)`,
    );
    console.log(
      `commit-to-arrival latency p50 ${formatMs(percentile(latencies, 50))}, p99 ${formatMs(percentile(latencies, 99))}, ` +
        `max ${formatMs(Math.max(...latencies))}`,
    );
    if (figures.lost + figures.duplicated > 0) for (const p of [...fleet.apis, ...fleet.workers]) console.error(`--- ${p.role} ---\n${p.output()}`);
  } finally {
    await Promise.all([...fleet.apis, ...fleet.workers].map((p) => p.stop()));
    await receiver.stop();
    await h.close();
    await database.drop();
  }
}
