import { createAccount } from "../../test/support/factories";
import { startHarness } from "../../test/support/harness";
import { Receiver } from "../../test/support/receiver";
import { formatMs, percentile } from "../stats";

/**
 * N messages posted through the API, one webhook subscribed to
 * message_created: how many arrive, how many are lost, and the time from the event's commit
 * to its arrival at the receiver.
 */
export async function run() {
  const n = Number(process.env.BENCH_MESSAGES ?? 200);
  const h = await startHarness({ relay: true });
  const receiver = await new Receiver().start();
  try {
    const account = await createAccount(h);
    const token = account.admin.token;
    const base = `/api/v1/accounts/${account.id}`;
    const ok = (response: { status: number; body: any }, what: string) => {
      if (response.status >= 300) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    };
    ok(await h.request("POST", `${base}/webhooks`, { token, body: { url: receiver.url, subscriptions: ["message_created"] } }), "webhook");
    const inbox = ok(await h.request("POST", `${base}/inboxes`, { token, body: { name: "Bench", channel: { type: "api" } } }), "inbox");
    const contact = ok(await h.request("POST", `${base}/contacts`, { token, body: { name: "Bench contact", inbox_id: inbox.id } }), "contact");
    // Chatwoot refuses a 201st message per conversation per minute, so the messages share several.
    const conversations: { id: number }[] = [];
    for (let i = 0; i < Math.ceil(n / 150); i++) {
      conversations.push(
        ok(await h.request("POST", `${base}/conversations`, { token, body: { inbox_id: inbox.id, contact_id: contact.payload.contact.id } }), "conversation"),
      );
    }

    const started = Date.now();
    for (let i = 0; i < n; i++) {
      const conversation = conversations[i % conversations.length]!;
      ok(await h.request("POST", `${base}/conversations/${conversation.id}/messages`, { token, body: { content: `bench ${i}`, message_type: "outgoing" } }), "message");
    }
    const postedIn = Date.now() - started;
    const arrived = (r: { body: any }[]) => new Set(r.filter((x) => x.body?.event === "message_created").map((x) => x.body.id)).size;
    await receiver.waitFor((r) => arrived(r) >= n, Number(process.env.BENCH_TIMEOUT_MS ?? 300_000)).catch(() => undefined);

    const events = await h.knex("events").where({ account_id: account.id, name: "message_created" }).select("payload", "created_at");
    const committedAt = new Map(events.map((e) => [e.payload.id as number, new Date(e.created_at).getTime()]));
    const latencies: number[] = [];
    const seen = new Map<number, number>();
    for (const request of receiver.requests) {
      const id = request.body?.id as number;
      if (request.body?.event !== "message_created" || !committedAt.has(id)) continue;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (seen.get(id) === 1) latencies.push(request.receivedAt - committedAt.get(id)!);
    }
    const duplicates = [...seen.values()].filter((count) => count > 1).length;
    console.log(`messages posted: ${n} in ${postedIn} ms (${((n / postedIn) * 1000).toFixed(1)}/s)`);
    console.log(`delivered: ${seen.size}, lost: ${n - seen.size}, duplicated: ${duplicates}`);
    console.log(`event-to-delivery latency: p50 ${formatMs(percentile(latencies, 50))}, p99 ${formatMs(percentile(latencies, 99))}, max ${formatMs(Math.max(...latencies))}`);
  } finally {
    await receiver.stop();
    await h.close();
  }
}
