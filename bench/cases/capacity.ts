import { loadavg } from "node:os";
import { startHarness } from "../../test/support/harness";
import { Receiver } from "../../test/support/receiver";
import { loadedAccount } from "../account";
import { cpuMeter, machineBusyMs, postgresBackendsOf, temporalServerOn } from "../cpu";
import { loadAcross, type LoadOptions, type RunningServer, startServer } from "../load";
import { drainOutbox } from "../outbox";

const CONVERSATIONS = 120;

/**
 * What docs/scaling.md's capacity model is built from: for ONE and for TWO API processes (behind one
 * load generator each, the connections split between them), throughput and CPU per request of GET
 * contact, the conversation list and POST message with a webhook on, split by where the CPU went: the
 * API processes, the PostgreSQL backends of the bench's database, the worker (relay, Temporal worker,
 * webhook sends) and the Temporal server per message, and the whole machine. Each round measures 1
 * then 2 processes, the next round 2 then 1 (BENCH_CAPACITY_ROUNDS, default 2), each phase beginning
 * with the machine's load average, since the machine is shared. BENCH_SECONDS sets a read phase's
 * length (10), BENCH_WRITE_SECONDS a write phase's (20).
 */
export async function run() {
  const rounds = Number(process.env.BENCH_CAPACITY_ROUNDS ?? 2);
  const writeSeconds = Number(process.env.BENCH_WRITE_SECONDS ?? 20);
  const h = await startHarness();
  const receiver = await new Receiver().start();
  const apis = [await startServer("api"), await startServer("api")];
  const worker = await startServer("worker");
  try {
    const { token, base, typical, conversations } = await loadedAccount(h, receiver.url, CONVERSATIONS);
    const headers = { api_access_token: token };
    const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    const temporalPort = process.env.TEMPORAL_ADDRESS!.split(":").pop()!;
    const phases: { name: string; options: LoadOptions }[] = [
      { name: "GET contact", options: { headers, path: () => `${base}/contacts/${typical.id}` } },
      { name: "GET conversation list", options: { headers, path: () => `${base}/conversations?status=open&page=1` } },
      {
        name: "POST message, webhook on",
        options: {
          method: "POST",
          headers,
          durationSeconds: writeSeconds,
          path: (i) => `${base}/conversations/${conversations[i % CONVERSATIONS]}/messages`,
          body: (i) => ({ content: `capacity ${i}`, message_type: "outgoing" }),
        },
      },
    ];
    for (let round = 0; round < rounds; round++) {
      const counts = round % 2 ? [2, 1] : [1, 2];
      for (const count of counts)
        for (const phase of phases) await measure(`${count} API ${count === 1 ? "process" : "processes"}, ${phase.name}`, apis.slice(0, count), phase.options);
    }

    async function measure(name: string, servers: RunningServer[], options: LoadOptions) {
      const load = loadavg()[0]!;
      const postgres = cpuMeter(postgresBackendsOf(database));
      const temporal = cpuMeter(temporalServerOn(temporalPort));
      const workerBefore = worker.cpuMs();
      const machineBefore = machineBusyMs();
      const result = await loadAcross(servers, options);
      const writes = options.method === "POST";
      // A write's cost runs on after its answer: the relay hands its event over and the worker sends the webhook.
      const drainedMs = writes ? await drainOutbox(h.knex) : 0;
      const per = (ms: number) => (ms / Math.max(1, result.total)).toFixed(2);
      console.log(
        `${name.padEnd(46)} load ${load.toFixed(1)}: ${result.requestsPerSecond.toFixed(0).padStart(5)} req/s, p50 ${result.p50.toFixed(0)} ms, ` +
          `p99 ${result.p99.toFixed(0)} ms; CPU ms/request: API ${result.cpuMsPerRequest.toFixed(2)}, PostgreSQL ${per(postgres())}` +
          (writes ? `, worker ${per(worker.cpuMs() - workerBefore)}, Temporal ${per(temporal())}` : "") +
          `, machine ${per(machineBusyMs() - machineBefore)}` +
          (writes ? (drainedMs === undefined ? "; outbox NOT drained in 120 s" : `; outbox drained ${(drainedMs / 1000).toFixed(1)} s after`) : "") +
          (result.errors ? `; ${result.errors} failed of ${result.total}` : ""),
      );
    }
  } finally {
    await worker.stop();
    await Promise.all(apis.map((api) => api.stop()));
    await receiver.stop();
    await h.close();
  }
}
