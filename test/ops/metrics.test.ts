import { randomUUID } from "node:crypto";
import test from "ava";
import { planTimers } from "../../src/conversations/timers";
import { EventRelay } from "../../src/events/relay";
import { eventually } from "../support/eventually";
import { conversationWorld, createConversation } from "../conversations/setup";
import { createAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";

// The gauges read the database: a database of this file's own makes their values known.
let own: OwnDatabase;
test.before(async () => {
  own = await createOwnDatabase("metrics");
});
const h = useHarness(test, () => ({ databaseUrl: own.url }));
test.after.always(async () => {
  await own?.drop();
});

/** One sample's value from the exposition text, e.g. value(text, 'webhook_deliveries{result="failed"}'). */
function value(text: string, sample: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

const scrape = async () => {
  const response = await h.request("GET", "/metrics");
  return { status: response.status, type: response.headers.get("content-type"), text: response.body as string };
};

test.serial("/metrics exposes request latency by route template and status, and the pool", async (t) => {
  const account = await createAccount(h);
  await accountApi(h, account).get("/inboxes");
  await accountApi(h, account).get("/inboxes");
  const { status, type, text } = await scrape();
  t.is(status, 200);
  t.regex(type ?? "", /^text\/plain; version=0\.0\.4/);
  t.true(value(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/accounts/:account_id/inboxes",status="200"}')! >= 2);
  t.is(value(text, 'db_pool_connections{state="max"}'), 5);
  t.not(value(text, 'db_pool_connections{state="used"}'), undefined);
  t.not(value(text, "process_cpu_seconds_total"), undefined);
});

test.serial("the outbox gauges and hand-over failures follow the events", async (t) => {
  const account = await createAccount(h);
  await h.knex("events").whereNull("dispatched_at").update({ dispatched_at: new Date() });
  await h.knex("events").insert([
    { account_id: account.id, name: "contact_created", payload: {}, created_at: h.knex.raw("now() - interval '10 minutes'") },
    { account_id: account.id, name: "contact_updated", payload: {} },
  ]);
  const before = await scrape();
  t.is(value(before.text, "outbox_backlog_events"), 2);
  t.true(value(before.text, "outbox_oldest_undispatched_age_seconds")! >= 600);
  const failuresBefore = value(before.text, "event_relay_hand_over_failures_total") ?? 0;

  // A relay whose consumer cannot reach Temporal postpones both events and counts each failure.
  const relay = new EventRelay(h.deps, { consumers: [{ dispatch: async () => Promise.reject(new Error("Temporal is down")) }], sweepIntervalMs: 60_000 });
  await relay.start();
  try {
    const after = await eventually(scrape, (s) => value(s.text, "outbox_postponed_events") === 2, "both events postponed");
    t.true(value(after.text, "event_relay_hand_over_failures_total")! >= failuresBefore + 2);
    t.is(value(after.text, "outbox_backlog_events"), 2);
  } finally {
    await relay.stop();
  }
});

test.serial("deliveries by result and pending conversation timers come from the database", async (t) => {
  const world = await conversationWorld(h);
  await h
    .knex("accounts")
    .where("id", world.account.id)
    .update({ settings: h.knex.raw(`settings || '{"auto_resolve_after": 60}'::jsonb`) });
  const [open, snoozed] = [await createConversation(h, world), await createConversation(h, world)];
  await h
    .knex("conversations")
    .where({ account_id: world.account.id, display_id: snoozed.id })
    .update({ status: "snoozed", snoozed_until: h.knex.raw("now() + interval '1 day'") });
  t.truthy(open);
  // As the relay plans them after the events of these changes.
  await planTimers(h.deps, await h.knex("conversations").where("account_id", world.account.id).pluck("id"));

  const [event] = await h
    .knex("events")
    .insert({ account_id: world.account.id, name: "message_created", payload: {}, dispatched_at: new Date() })
    .returning("id");
  const delivery = (status: string, targetId: number) => ({
    id: randomUUID(),
    account_id: world.account.id,
    event_id: event.id,
    event_name: "message_created",
    target_type: "Webhook",
    target_id: targetId,
    url: "https://example.com/hook",
    status,
  });
  await h.knex("webhook_deliveries").insert([delivery("delivered", 1), delivery("failed", 2), delivery("failed", 3)]);

  const { text } = await scrape();
  t.is(value(text, 'webhook_deliveries{result="delivered"}'), 1);
  t.is(value(text, 'webhook_deliveries{result="failed"}'), 2);
  t.is(value(text, 'webhook_deliveries{result="pending"}'), 0);
  t.is(value(text, 'conversation_timers_pending{kind="resolve"}'), 1);
  t.is(value(text, 'conversation_timers_pending{kind="reopen"}'), 1);
});
