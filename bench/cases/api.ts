import { createContact, createInbox } from "../../test/support/conversationFactories";
import { createAccount } from "../../test/support/factories";
import { ok, startHarness } from "../../test/support/harness";
import { Receiver } from "../../test/support/receiver";
import { load, report, startServer } from "../load";

const CONVERSATIONS = 120;

/**
 * The API under concurrent load beside a bare Koa route doing one indexed query on the same
 * database (same load generator, same run): req/s, p50, p99 and the ratio to the baseline.
 * BENCH_SECONDS sets each read case's length (default 10), BENCH_WRITE_SECONDS the message case's (60).
 */
export async function run() {
  const h = await startHarness();
  const receiver = await new Receiver().start();
  const bare = await startServer("bare");
  const api = await startServer("api", { BENCH_WORKER: "1" });
  try {
    const account = await createAccount(h);
    const token = account.admin.token;
    const base = `/api/v1/accounts/${account.id}`;
    const inbox = await createInbox(h, account);
    const { contact } = await createContact(h, account, { inbox_id: inbox.id });
    await ok(h.request("POST", `${base}/webhooks`, { token, body: { url: receiver.url, subscriptions: ["message_created"] } }), "webhook");
    const conversations: number[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      conversations.push((await ok(h.request("POST", `${base}/conversations`, { token, body: { inbox_id: inbox.id, contact_id: contact.id } }), "conversation")).id);
    }
    const headers = { api_access_token: token };

    const baseline = await load(bare.url, { path: () => `/contacts/${contact.id}` });
    report("bare Koa + pg: one indexed select", baseline);
    report("GET contact", await load(api.url, { headers, path: () => `${base}/contacts/${contact.id}` }), baseline);
    report("GET conversation", await load(api.url, { headers, path: (i) => `${base}/conversations/${conversations[i % CONVERSATIONS]}` }), baseline);
    report("GET conversation list (25 a page, meta counts)", await load(api.url, { headers, path: () => `${base}/conversations?status=open&page=1` }), baseline);

    const writeSeconds = Number(process.env.BENCH_WRITE_SECONDS ?? 60);
    const insert = await load(bare.url, { method: "POST", path: () => "/bench_rows", body: () => ({}), durationSeconds: writeSeconds });
    report("bare Koa + pg: one insert", insert);
    const posted = await load(api.url, {
      method: "POST",
      headers,
      durationSeconds: writeSeconds,
      path: (i) => `${base}/conversations/${conversations[i % CONVERSATIONS]}/messages`,
      body: (i) => ({ content: `load ${i}`, message_type: "outgoing" }),
    });
    report(`POST message (${CONVERSATIONS} conversations, webhook on)`, posted, insert);
    const backlog = async () => Number((await h.knex("events").whereNull("dispatched_at").count({ n: "*" }).first())!.n);
    const atEnd = await backlog();
    const drainStarted = Date.now();
    while ((await backlog()) > 0 && Date.now() - drainStarted < 120_000) await new Promise((resolve) => setTimeout(resolve, 250));
    console.log(`outbox backlog when the load stopped: ${atEnd} events, drained in ${((Date.now() - drainStarted) / 1000).toFixed(1)} s`);
  } finally {
    await api.stop();
    await bare.stop();
    await receiver.stop();
    await h.close();
  }
}
