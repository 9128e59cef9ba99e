import { cpus } from "node:os";
import { noteRawMessages } from "../../test/support/conversationFactories";
import { benchAccount, loadedAccount } from "../account";
import { expectOk, type Harness, startHarness } from "../../test/support/harness";
import { Receiver } from "../../test/support/receiver";
import { machineBusyMs } from "../cpu";
import { asInService } from "../inService";
import { load, report, type RunningServer, startServer } from "../load";
import { drainOutbox, outboxBacklog } from "../outbox";

const CONVERSATIONS = 120;
const CASES = ["contact", "conversation", "list", "unread", "long", "message"] as const;
/** Incoming messages each conversation of the `unread` case has, none of them seen by an agent. */
const UNREAD_MESSAGES = 3;
/** Messages a conversation has in the `long` case: a conversation shown reads its newest and its unread count. */
const LONG_MESSAGES = 400;

/** An account whose open conversations each hold incoming messages no agent has read, posted as its contacts'. */
async function unreadInbox(h: Harness) {
  const { token, base, inbox, contact } = await benchAccount(h);
  for (let i = 0; i < CONVERSATIONS; i++) {
    const { id } = await expectOk(h.request("POST", `${base}/conversations`, { token, body: { inbox_id: inbox.id, contact_id: contact.id } }), "conversation");
    for (let m = 0; m < UNREAD_MESSAGES; m++) {
      const body = { content: `Hello, is my order ${i}-${m} on its way? I ordered it last week.`, message_type: "incoming" };
      await expectOk(h.request("POST", `${base}/conversations/${id}/messages`, { token, body }), "incoming message");
    }
  }
  return { token, base };
}

/**
 * The bare route answering the list's page (as the API answers it now) after its one indexed select:
 * what writing that page costs a route that does nothing else, the floor of any way to serve it.
 */
async function pageFloor(api: RunningServer, bare: RunningServer, list: { headers: Record<string, string>; path: () => string }, contactId: number) {
  const page = await fetch(`${api.url}${list.path()}`, { headers: list.headers });
  if (!page.ok) throw new Error(`GET conversation list answered ${page.status}`);
  const body = await page.text();
  const stored = await fetch(`${bare.url}/page`, { method: "PUT", body });
  if (!stored.ok) throw new Error(`PUT /page answered ${stored.status}`);
  const floor = await load(bare, { path: () => `/page?contact_id=${contactId}` });
  report(`bare Koa + pg: one indexed select, writes that page (${Buffer.byteLength(body)} bytes)`, floor);
  return floor;
}

/**
 * The API under concurrent load beside a bare Koa route doing one indexed query on the same
 * database (same load generator, same run): req/s, p50, p99, the server's CPU per request and the
 * ratio to the baseline. The worker (Temporal worker and relay) runs in a process of its own, as
 * production runs it, so the message case shows whether it keeps up.
 * BENCH_SECONDS sets each read case's length (default 10), BENCH_WRITE_SECONDS the message case's (60),
 * BENCH_API_CASES picks cases (comma-separated: contact, conversation, list, unread, long, message); `unread`
 * is the list of an agent's real inbox: another account's 120 open conversations, each with three incoming
 * messages no agent has seen, also against its floor (the bare route writing the same page); `long` is the list again once every conversation has 400 messages. BENCH_WORKER=off runs the message case without the worker.
 */
export async function run() {
  const selected = new Set(process.env.BENCH_API_CASES ? process.env.BENCH_API_CASES.split(",").map((c) => c.trim()) : CASES);
  const unknown = [...selected].filter((c) => !(CASES as readonly string[]).includes(c));
  if (unknown.length) throw new Error(`Unknown BENCH_API_CASES: ${unknown.join(", ")}; known: ${CASES.join(", ")}`);
  const h = await startHarness();
  const receiver = await new Receiver().start();
  const bare = await startServer("bare");
  const api = await startServer("api");
  // BENCH_WORKER=off leaves the message case's events in the outbox: the API's own cost of a message.
  const worker = selected.has("message") && process.env.BENCH_WORKER !== "off" ? await startServer("worker") : undefined;
  try {
    const { account, token, base, contact, typical, conversations } = await loadedAccount(h, receiver.url, CONVERSATIONS);
    const headers = { api_access_token: token };
    await asInService(h.knex);

    if (["contact", "conversation", "list", "unread", "long"].some((name) => selected.has(name))) {
      const bareSelect = () => load(bare, { path: () => `/contacts/${contact.id}` });
      const baseline = await bareSelect();
      report("bare Koa + pg: one indexed select", baseline);
      if (selected.has("contact")) report("GET contact", await load(api, { headers, path: () => `${base}/contacts/${typical.id}` }), baseline);
      if (selected.has("conversation")) {
        report("GET conversation", await load(api, { headers, path: (i) => `${base}/conversations/${conversations[i % CONVERSATIONS]}` }), baseline);
      }
      if (selected.has("list"))
        report(
          "GET conversation list (25 a page, meta counts)",
          await load(api, { headers, path: () => `${base}/conversations?status=open&page=1` }),
          baseline,
        );
      if (selected.has("unread")) {
        const inbox = await unreadInbox(h);
        await asInService(h.knex);
        const list = { headers: { api_access_token: inbox.token }, path: () => `${inbox.base}/conversations?status=open&page=1` };
        // The bare select again, just before: the machine's speed moves within a run, and this case
        // comes a minute after the first (its inbox is written in between).
        const nearBaseline = await bareSelect();
        report("bare Koa + pg: one indexed select, again", nearBaseline);
        const floor = { name: "its floor", result: await pageFloor(api, bare, list, contact.id) };
        report(`GET conversation list, ${UNREAD_MESSAGES} unread incoming messages each`, await load(api, list), nearBaseline, floor);
      }
      if (selected.has("long")) {
        await h.knex.raw(
          `insert into messages (account_id, inbox_id, conversation_id, message_type, content, created_at)
           select c.account_id, c.inbox_id, c.id, g % 3, 'long ' || g, now() - g * interval '1 second' from conversations c, generate_series(1, ?) g
           where c.account_id = ?`,
          [LONG_MESSAGES, account.id],
        );
        await noteRawMessages(h.knex, account.id);
        await h.knex.raw("analyze messages");
        report(
          `GET conversation list, ${LONG_MESSAGES} messages a conversation`,
          await load(api, { headers, path: () => `${base}/conversations?status=open&page=1` }),
          baseline,
        );
      }
    }

    if (selected.has("message")) {
      const writeSeconds = Number(process.env.BENCH_WRITE_SECONDS ?? 60);
      const insert = await load(bare, { method: "POST", path: () => "/bench_rows", body: () => ({}), durationSeconds: writeSeconds });
      report("bare Koa + pg: one insert", insert);
      const workerCpuBefore = worker?.cpuMs() ?? 0;
      const machineBefore = machineBusyMs();
      const posted = await load(api, {
        method: "POST",
        headers,
        durationSeconds: writeSeconds,
        path: (i) => `${base}/conversations/${conversations[i % CONVERSATIONS]}/messages`,
        body: (i) => ({ content: `load ${i}`, message_type: "outgoing" }),
      });
      report(`POST message (${CONVERSATIONS} conversations, webhook on)`, posted, insert);
      const atEnd = await outboxBacklog(h.knex);
      if (!worker) {
        console.log(`worker off: ${atEnd} events left in the outbox; the API's cost alone`);
        return;
      }
      const drainedMs = await drainOutbox(h.knex);
      const left = await outboxBacklog(h.knex);
      const machineMs = (machineBusyMs() - machineBefore) / Math.max(1, posted.total);
      console.log(
        `outbox backlog when the load stopped: ${atEnd} events (${(atEnd / Math.max(1, posted.requestsPerSecond)).toFixed(1)} s of posting), ` +
          `${drainedMs === undefined ? `${left} still undispatched after 120 s` : `drained in ${(drainedMs / 1000).toFixed(1)} s`}; ` +
          `worker CPU ${((worker.cpuMs() - workerCpuBefore) / Math.max(1, posted.total)).toFixed(2)} ms per message; ` +
          `the whole machine (API, worker, PostgreSQL, Temporal, receiver, load generator) ${machineMs.toFixed(2)} ms of CPU per message, so its ${cpus().length} cores carry at most ` +
          `${Math.round((cpus().length * 1000) / machineMs)} messages/s`,
      );
    }
  } finally {
    await worker?.stop();
    await api.stop();
    await bare.stop();
    await receiver.stop();
    await h.close();
  }
}
