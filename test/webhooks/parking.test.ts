import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import test from "ava";
import { createApp } from "../../src/app";
import { closeServer } from "../../src/runtime";
import { createContact, createInbox } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { createAccount, type TestAccount } from "../support/factories";
import { expectOk, quickRetries, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { Receiver } from "../support/receiver";

/**
 * One account's event that cannot be handed over (its Temporal input over the 2 MB payload limit)
 * is parked after a few quick retries; every other account's webhooks and automations go on at their
 * usual pace, /health stays ok and shows the parked event, /metrics counts it, and an operator
 * re-drives it once the cause is gone. A database of the file's own: /health reads the whole outbox.
 */
let own: OwnDatabase;
test.before(async () => {
  own = await createOwnDatabase("parking");
});
const h = useHarness(test, () => ({
  databaseUrl: own.url,
  relay: { sweepIntervalMs: 300, parkAfterAttempts: 3 },
  settings: { delivery: quickRetries() },
}));
test.after.always(async () => {
  await own?.drop();
});

/** Health as a deployment with a short outbox limit sees it: a stalled event would turn it red within seconds. */
async function health(): Promise<{ status: number; body: any }> {
  const server = createApp(h.deps, { outboxMaxAgeSeconds: 4 }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/health`);
    return { status: response.status, body: await response.json() };
  } finally {
    await closeServer(server);
  }
}

const api = (account: TestAccount, method: string, path: string, body?: unknown) =>
  expectOk(h.request(method, `/api/v1/accounts/${account.id}${path}`, { token: account.admin.token, body }), `${method} ${path}`);

/** An account with a webhook on conversation_created and a rule that labels every new conversation. */
async function watchedAccount(t: { teardown(fn: () => unknown): void }) {
  const account = await createAccount(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  await api(account, "POST", "/webhooks", { url: receiver.url, subscriptions: ["conversation_created"] });
  await api(account, "POST", "/automation_rules", {
    name: "label new conversations",
    event_name: "conversation_created",
    conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
    actions: [{ action_name: "add_label", action_params: ["seen"] }],
  });
  const inbox = await createInbox(h, account);
  const open = async () => {
    const { contact } = await createContact(h, account, { inbox_id: inbox.id });
    const started = Date.now();
    const conversation = await api(account, "POST", "/conversations", { inbox_id: inbox.id, contact_id: contact.id });
    return { conversation, started };
  };
  const labelled = (displayId: number) =>
    eventually(
      () => h.knex("conversations").where({ account_id: account.id, display_id: displayId }).first("labels"),
      (row) => row?.labels?.includes("seen"),
      `the rule's label on conversation ${displayId}`,
      10_000,
    );
  return { account, receiver, open, labelled };
}

/** An event of the account whose Temporal input is over the payload limit, as a row stored before any limit would be. */
async function unhandableEvent(account: TestAccount): Promise<number> {
  const [row] = await h
    .knex("events")
    .insert({
      account_id: account.id,
      name: "avatar_url_changed",
      payload: JSON.stringify({ owner: "contact", id: 1, url: `https://example.com/${"x".repeat(2_500_000)}` }),
    })
    .returning("id");
  await h.knex.raw("select pg_notify('convo_sched_events', '')");
  return row.id;
}

test.serial("an event that cannot be handed over is parked; other accounts' webhooks and automations go on; health stays ok; re-driven it goes", async (t) => {
  const a = await watchedAccount(t);
  const b = await watchedAccount(t);
  const bad = await unhandableEvent(a.account);

  // Well past the outbox limit of health() above, and past the parking.
  const parked = await eventually(
    () => h.knex("events").where("id", bad).first("parked_at", "dispatch_attempts", "last_dispatch_error"),
    (row) => row.parked_at !== null,
    "the event parked",
    20_000,
  );
  t.is(parked.dispatch_attempts, 3);
  t.truthy(parked.last_dispatch_error);

  // Meanwhile, and after, the other account's events go out at their usual pace.
  for (let i = 0; i < 3; i++) {
    const { conversation, started } = await b.open();
    await b.receiver.waitFor((requests) => requests.some((r) => r.body.id === conversation.id), 5000);
    await b.labelled(conversation.id);
    t.true(Date.now() - started < 5000, `conversation ${conversation.id} of account B delivered and labelled within 5 s`);
  }
  // And the parked event's own account still flows too.
  const ofA = await a.open();
  await a.receiver.waitFor((requests) => requests.some((r) => r.body.id === ofA.conversation.id), 5000);
  await a.labelled(ofA.conversation.id);

  await new Promise((resolve) => setTimeout(resolve, 4500));
  const healthy = await health();
  t.is(healthy.status, 200, JSON.stringify(healthy.body));
  t.like(healthy.body, {
    status: "ok",
    events: "flowing",
    outbox: { backlog: 0, parked: 1, oldest_parked: { event_id: bad, account_id: a.account.id, event: "avatar_url_changed" } },
  });
  t.truthy(healthy.body.outbox.oldest_parked.error);

  const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
  t.regex(metrics, /^outbox_parked_events 1$/m);
  t.regex(metrics, new RegExp(`^outbox_oldest_parked_event\\{event_id="${bad}",account_id="${a.account.id}",event="avatar_url_changed",error=".+"\\} 1$`, "m"));
  t.regex(metrics, /^outbox_backlog_events 0$/m);

  // The operator fixes the cause (here: the stored value) and re-drives it with the CLI.
  await h
    .knex("events")
    .where("id", bad)
    .update({ payload: JSON.stringify({ owner: "contact", id: 1, url: "https://example.com/a.png" }) });
  const { stdout } = await promisify(execFile)("npx", ["tsx", "src/cli/redriveEvents.ts", String(bad)], { env: { ...process.env, DATABASE_URL: own.url } });
  t.regex(stdout, new RegExp(`Re-driven: ${bad}`));
  const delivered = await eventually(
    () => h.knex("events").where("id", bad).first("dispatched_at", "parked_at"),
    (row) => row.dispatched_at !== null,
    "the re-driven event handed over",
    10_000,
  );
  t.is(delivered.parked_at, null);
  t.like((await health()).body, { status: "ok", outbox: { parked: 0 } });
});

test.serial("an account's rules with 900,000-character names (stored before the limits) no longer stop its automations", async (t) => {
  const a = await watchedAccount(t);
  // Three rules as the probe made them, written past the API's limits as old rows would be.
  await h.knex("automation_rules").insert(
    [1, 2, 3].map((n) => ({
      account_id: a.account.id,
      name: `${n}${"n".repeat(900_000)}`,
      event_name: "conversation_created",
      conditions: JSON.stringify([{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }]),
      actions: JSON.stringify([{ action_name: "add_label", action_params: [`long-${n}`] }]),
      active: true,
    })),
  );
  const { conversation } = await a.open();
  await a.receiver.waitFor((requests) => requests.some((r) => r.body.id === conversation.id), 5000);
  const row = await eventually(
    () => h.knex("conversations").where({ account_id: a.account.id, display_id: conversation.id }).first("labels"),
    (found) => ["seen", "long-1", "long-2", "long-3"].every((label) => found.labels.includes(label)),
    "every rule's label",
    10_000,
  );
  t.truthy(row);
  t.is(Number((await h.knex("events").whereNotNull("parked_at").count("* as n").first())!.n), 0, "nothing parked");
});
