import { recordEvent } from "../../src/events/outbox";
import { createAccount } from "../../test/support/factories";
import { expectOk, startHarness, type Harness } from "../../test/support/harness";
import { Receiver } from "../../test/support/receiver";
import { startServer, type RunningServer } from "../load";
import { formatMs, percentile } from "../stats";
import { printStages } from "../webhookStages";

/**
 * The event pipeline alone: events committed at a steady rate (and as one burst), one account webhook
 * subscribed, the worker and relay in a process of their own. Reports commit-to-arrival latency,
 * losses and duplicates per phase. BENCH_RATE_SECONDS sets each steady phase's length (default 60),
 * BENCH_BURST the burst's size (default 5000).
 */
export async function run() {
  const h = await startHarness();
  const receiver = await new Receiver().start();
  const worker = await startServer("worker");
  try {
    const account = await createAccount(h);
    const webhook = await expectOk(
      h.request("POST", `/api/v1/accounts/${account.id}/webhooks`, {
        token: account.admin.token,
        body: { url: receiver.url, subscriptions: ["contact_created"] },
      }),
      "webhook",
    );
    const seconds = Number(process.env.BENCH_RATE_SECONDS ?? 60);
    let next = 0;
    // When each event's transaction was acknowledged, for BENCH_STAGES.
    const committed = new Map<number, number>();
    const emit = async (count: number) => {
      const ids = Array.from({ length: count }, () => next++);
      await h.knex.transaction(async (trx) => {
        for (const id of ids) await recordEvent(trx, { accountId: account.id, name: "contact_created", payload: { id, event: "contact_created" } });
      });
      const now = Date.now();
      for (const id of ids) committed.set(id, now);
    };
    const stages = process.env.BENCH_STAGES === "1" ? { webhookId: webhook.payload.webhook.id as number, committed } : undefined;

    // Steady state: the worker has bundled its workflows and the lane runs before the clock starts.
    const warmup = next;
    await emit(5);
    await report(h, receiver, "warm-up (not a figure)", warmup, next);

    for (const rate of [50, 200]) {
      const first = next;
      const cpuBefore = worker.cpuMs();
      await steady(rate, seconds, () => emit(1));
      await report(h, receiver, `${rate} events/s for ${seconds} s`, first, next, { worker, cpuBefore, stages });
    }

    const burst = Number(process.env.BENCH_BURST ?? 5000);
    const burstFirst = next;
    const burstStarted = Date.now();
    await emit(burst);
    const afterFirst = next;
    // Events that arrive while the burst is being delivered: they must not wait for all of it.
    await steady(10, 10, () => emit(1));
    await report(h, receiver, `burst of ${burst} in one transaction`, burstFirst, afterFirst, { startedAt: burstStarted });
    await report(h, receiver, "10 events/s during and after the burst", afterFirst, next);
  } finally {
    await worker.stop();
    await receiver.stop();
    await h.close();
  }
}

/** Calls `emitOne` `rate` times a second for `seconds`, on schedule whatever each call takes (open loop). */
async function steady(rate: number, seconds: number, emitOne: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(emitOne());
  }
  await Promise.all(pending);
}

/** Waits for the events [first, end) to arrive (up to two minutes), then prints their figures. */
async function report(
  h: Harness,
  receiver: Receiver,
  phase: string,
  first: number,
  end: number,
  {
    startedAt,
    worker,
    cpuBefore = 0,
    stages,
  }: {
    /** When the burst began: the line says when its last event arrived. */
    startedAt?: number;
    /** The worker process, and its CPU time when the phase began: the line says its CPU per event. */
    worker?: RunningServer;
    cpuBefore?: number;
    stages?: { webhookId: number; committed: Map<number, number> };
  } = {},
) {
  const wanted = end - first;
  const inPhase = (id: number) => id >= first && id < end;
  await receiver.waitFor((requests) => new Set(requests.map((r) => r.body?.id).filter(inPhase)).size >= wanted, 120_000).catch(() => undefined);
  const events: { payload: { id: number }; created_at: Date }[] = await h
    .knex("events")
    .where("name", "contact_created")
    .whereRaw("(payload->>'id')::int >= ? AND (payload->>'id')::int < ?", [first, end])
    .select("payload", "created_at");
  const committedAt = new Map(events.map((e) => [e.payload.id, new Date(e.created_at).getTime()]));
  const seen = new Map<number, number>();
  const latencies: number[] = [];
  let lastArrival = 0;
  for (const request of receiver.requests) {
    const id = request.body?.id as number;
    if (!inPhase(id)) continue;
    seen.set(id, (seen.get(id) ?? 0) + 1);
    if (seen.get(id) === 1) latencies.push(request.receivedAt - committedAt.get(id)!);
    lastArrival = Math.max(lastArrival, request.receivedAt);
  }
  const duplicated = [...seen.values()].filter((n) => n > 1).length;
  const all = startedAt ? `, all delivered ${((lastArrival - startedAt) / 1000).toFixed(1)} s after the burst began` : "";
  const cpu = worker ? `, worker CPU ${((worker.cpuMs() - cpuBefore) / wanted).toFixed(2)} ms/event` : "";
  console.log(
    `${phase.padEnd(40)} delivered ${seen.size}/${wanted}, lost ${wanted - seen.size}, duplicated ${duplicated}; ` +
      `latency p50 ${formatMs(percentile(latencies, 50))}, p99 ${formatMs(percentile(latencies, 99))}, max ${formatMs(Math.max(...latencies))}${all}${cpu}`,
  );
  if (stages) await printStages(h, stages.webhookId, { began: committedAt, committed: stages.committed }, receiver.requests, inPhase);
}
