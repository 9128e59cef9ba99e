import test from "ava";
import { recordEvent } from "../../src/events/outbox";
import { createAccount } from "../support/factories";
import { accountApi, quickRetries, useHarness, webhookLanes } from "../support/harness";
import { eventually } from "../support/eventually";
import { Receiver } from "../support/receiver";

// Short spans, so one test sees hand-overs move through several lanes.
const h = useHarness(test, { relay: true, settings: { delivery: { ...quickRetries(), laneSpanMs: 300 } } });

test("events handed over across several spans each arrive once, through a lane per span that ends after it", async (t) => {
  const account = await createAccount(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const created = await accountApi(h, account).post("/webhooks", { url: receiver.url, subscriptions: ["contact_created"] });
  t.is(created.status, 200);
  const webhookId = created.body.payload.webhook.id as number;

  const n = 30;
  for (let i = 0; i < n; i++) {
    await h.knex.transaction((trx) => recordEvent(trx, { accountId: account.id, name: "contact_created", payload: { id: i, event: "contact_created" } }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Every ten events, once they have arrived, a pause longer than a span: however a loaded relay
    // batches its hand-overs, the three groups are handed over in three spans at least.
    if (i % 10 === 9) {
      await receiver.waitFor((requests) => new Set(requests.map((r) => r.body.id)).size > i);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  }
  await receiver.waitFor((requests) => new Set(requests.map((r) => r.body.id)).size >= n);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.deepEqual(
    receiver.requests.map((r) => r.body.id).sort((a, b) => a - b),
    Array.from({ length: n }, (_, i) => i),
    "each event once, none lost",
  );

  // 1.5 s of events in 300 ms spans: several lanes, and each ends once its span (and grace) is over.
  const ended = await eventually(
    () => webhookLanes(h, webhookId),
    (found) => found.length > 0 && found.every((lane) => lane.status.name === "COMPLETED"),
    "every lane to end",
    30_000,
  );
  t.true(new Set(ended.map((lane) => lane.workflowId)).size >= 3, `${ended.length} lanes`);
});
