import { benchAccount } from "../account";
import { type Harness, expectOk, startHarness } from "../../test/support/harness";
import { Receiver } from "../../test/support/receiver";
import { eventConsumers } from "../../src/runtime";
import { EventRelay } from "../../src/events/relay";
import pg from "pg";
import { OneRoundTrip } from "../../src/db/oneRoundTrip";

/**
 * SQL statements per request on the hot paths, with the auth cache warm (the steady state): each
 * statement pays query building, a round trip and row parsing, so this is the first number to cut.
 * Then the relay's and the worker's statements for one message's webhook, from its commit to its
 * recorded delivery. BENCH_SHOW_SQL=1 prints the statements.
 */
export async function run() {
  // The relay starts once the requests are counted, so none of its statements land among theirs.
  const h = await startHarness({ worker: true });
  const receiver = await new Receiver().start();
  let relay: EventRelay | undefined;
  try {
    const { token, base, inbox, contact } = await benchAccount(h);
    const conversation = await expectOk(
      h.request("POST", `${base}/conversations`, { token, body: { inbox_id: inbox.id, contact_id: contact.id } }),
      "conversation",
    );
    const cases: [string, string, string, unknown?][] = [
      ["GET contact", "GET", `${base}/contacts/${contact.id}`],
      ["GET conversation", "GET", `${base}/conversations/${conversation.id}`],
      ["GET conversation list", "GET", `${base}/conversations?status=open&page=1`],
      ["POST message", "POST", `${base}/conversations/${conversation.id}/messages`, { content: "counted", message_type: "outgoing" }],
    ];
    const show = (name: string, statements: string[]) => {
      console.log(`${name.padEnd(24)} ${statements.length} SQL statements`);
      if (process.env.BENCH_SHOW_SQL === "1") for (const sql of statements) console.log(`    ${sql}`);
    };
    let requestStatements: string[] = [];
    for (const [name, method, path, body] of cases) {
      await expectOk(h.request(method, path, { token, body }), `${name} (warming the auth cache)`);
      const statements = await counted(h, () => expectOk(h.request(method, path, { token, body }), name));
      show(name, statements);
      requestStatements = statements;
    }

    // The relay runs in this process, so its statements and the worker's are counted with the request's
    // (the last case's, whose statements are known and left out): from the request until the delivery is
    // recorded and all is quiet. The requests' own events so far are not this measurement's.
    await expectOk(h.request("POST", `${base}/webhooks`, { token, body: { url: receiver.url, subscriptions: ["message_created"] } }), "webhook");
    await h.knex("events").whereNull("dispatched_at").update({ dispatched_at: h.knex.fn.now() });
    relay = new EventRelay(h.deps, { consumers: eventConsumers() });
    await relay.start();
    // Its start-up drains (which find nothing) are not the event's either.
    await quiet(h);
    const [name, method, path, body] = cases.at(-1)!;
    const statements = await counted(h, async () => {
      await expectOk(h.request(method, path, { token, body }), name);
      await receiver.waitFor((requests) => requests.length === 1);
      await quiet(h);
    });
    for (const sql of requestStatements) if (statements.includes(sql)) statements.splice(statements.indexOf(sql), 1);
    show("  its webhook, relayed and delivered", statements);
  } finally {
    await relay?.stop();
    await receiver.stop();
    await h.close();
  }
}

/**
 * Statements of batches as they go to pg (src/db/batch.ts sends them past knex, whose query events
 * see the rest): this bench's own watch on pg's client.query.
 */
const batchWatchers = new Set<(texts: string[]) => void>();
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [config] = args;
  if (config instanceof OneRoundTrip) for (const watch of batchWatchers) watch(config.statements.map((statement) => statement.text));
  return (clientQuery as (...args: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

/** Resolves once no statement has been sent for half a second. */
async function quiet(h: Harness): Promise<void> {
  let last = Date.now();
  const onQuery = () => (last = Date.now());
  h.knex.on("query", onQuery);
  batchWatchers.add(onQuery);
  try {
    while (Date.now() - last < 500) await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    h.knex.off("query", onQuery);
    batchWatchers.delete(onQuery);
  }
}

async function counted(h: Harness, request: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const onQuery = (query: { sql: string }) => statements.push(query.sql);
  const onBatch = (texts: string[]) => statements.push(...texts);
  h.knex.on("query", onQuery);
  batchWatchers.add(onBatch);
  try {
    await request();
  } finally {
    h.knex.off("query", onQuery);
    batchWatchers.delete(onBatch);
  }
  return statements;
}
