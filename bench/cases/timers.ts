import { randomUUID } from "node:crypto";
import { planTimers } from "../../src/conversations/timers";
import { createContact, createInbox } from "../../test/support/conversationFactories";
import { createAccount } from "../../test/support/factories";
import { startHarness } from "../../test/support/harness";
import { formatMs, percentile } from "../stats";

const RESOLVED_ACTIVITY = "Conversation was marked resolved by system due to 10 minutes of inactivity";

/**
 * N open conversations whose auto-resolve deadlines are spread over a minute, planned as the timer
 * consumer plans them and fired by the installation's timer sweep: how many resolve, how many are
 * missed or resolved early (both must be 0), how late after the deadline, and the peak memory of the
 * process running the worker.
 */
export async function run() {
  const n = Number(process.env.BENCH_CONVERSATIONS ?? 1000);
  const spreadMs = Number(process.env.BENCH_SPREAD_MS ?? 60_000);
  // The worker's pool as `npm start` sizes it (src/db: ten connections).
  const h = await startHarness({ worker: true, poolMax: 10 });
  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 200);
  try {
    const account = await createAccount(h);
    await h.request("PATCH", `/api/v1/accounts/${account.id}`, { token: account.admin.token, body: { auto_resolve_after: 10 } });
    const inbox = await createInbox(h, account);
    const { contact } = await createContact(h, account, { inbox_id: inbox.id });

    // Seeding and planning take a while; the first deadline waits for that.
    const marginMs = Number(process.env.BENCH_MARGIN_MS ?? Math.max(10_000, n * 2));
    const firstDeadline = Date.now() + marginMs;
    const deadlines = Array.from({ length: n }, (_, i) => firstDeadline + Math.floor((i * spreadMs) / n));
    const rows = deadlines.map((deadline, i) => ({
      account_id: account.id,
      display_id: 1_000_000 + i,
      uuid: randomUUID(),
      inbox_id: inbox.id,
      contact_id: contact.id,
      status: "open",
      last_activity_at: new Date(deadline - 10 * 60_000),
    }));
    const inserted: { id: number; account_id: number; display_id: number; uuid: string }[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      inserted.push(
        ...(await h
          .knex("conversations")
          .insert(rows.slice(i, i + 500))
          .returning(["id", "account_id", "display_id", "uuid"])),
      );
    }
    const deadlineOf = new Map(inserted.map((row, i) => [row.id, deadlines[i]!]));
    const ids = [...deadlineOf.keys()];

    const startedAt = Date.now();
    // As the timer consumer does after each relay batch.
    for (let i = 0; i < ids.length; i += 500) await planTimers(h.deps, ids.slice(i, i + 500));
    const startMs = Date.now() - startedAt;
    console.log(`${n} timers planned in ${startMs} ms (${((n / startMs) * 1000).toFixed(0)}/s); first deadline ${marginMs} ms after seeding`);

    const lastDeadline = deadlines.at(-1)!;
    const graceMs = Number(process.env.BENCH_GRACE_MS ?? 60_000);
    let resolved: { conversation_id: number; created_at: Date }[] = [];
    while (Date.now() < lastDeadline + graceMs) {
      resolved = await h
        .knex("messages")
        .whereIn("conversation_id", ids)
        .where({ message_type: 2, content: RESOLVED_ACTIVITY })
        .select("conversation_id", "created_at");
      if (resolved.length >= n) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const lateness = resolved.map((m) => new Date(m.created_at).getTime() - deadlineOf.get(m.conversation_id)!);
    const early = lateness.filter((ms) => ms < 0).length;
    console.log(`resolved: ${resolved.length}/${n}, missed: ${n - resolved.length}, early: ${early}`);
    console.log(
      `lateness after deadline: p50 ${formatMs(percentile(lateness, 50))}, p99 ${formatMs(percentile(lateness, 99))}, max ${formatMs(Math.max(...lateness))}`,
    );
    console.log(`worker process peak memory: rss ${(peakRss / 2 ** 20).toFixed(0)} MiB, heap ${(peakHeap / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    clearInterval(sampler);
    await h.close();
  }
}
