import test from "ava";
import { campaignConsumer } from "../../src/campaigns/consumer";
import type { EventRow } from "../../src/events/outbox";
import { campaignWorkflowId } from "../../src/temporal/contracts";
import { eventually } from "../support/eventually";
import { expectOk, ownQueue, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { campaignWorld } from "./support";

let db: OwnDatabase;
test.before(async () => {
  db = await createOwnDatabase("campaigns");
});
// No relay: the test hands the campaign's event to its own queue, whose workers it starts and stops.
const h = useHarness(test, () => ({ databaseUrl: db.url, settings: { campaignSendsPerSecond: 40 } }));
test.after.always(async () => {
  await db?.drop();
});

const deliveries = async (campaignId: number) => Number((await h.knex("campaign_deliveries").where("campaign_id", campaignId).count("* as n").first())!.n);

test("a campaign of 500 contacts survives its worker going away mid-run: each contact is messaged exactly once", async (t) => {
  const w = await campaignWorld(h, 500);
  const { deps, startWorker } = ownQueue(h, "campaign-restart");
  const created = await expectOk(
    h.request("POST", `${w.base}/campaigns`, {
      token: w.account.admin.token,
      body: {
        title: "Launch",
        message: "We launched!",
        inbox_id: w.api.id,
        sender_id: w.account.admin.id,
        scheduled_at: new Date(Date.now() + 2000).toISOString(),
        audience: [{ type: "Label", id: w.vip.id }],
      },
    }),
    "campaign",
  );
  const campaign = await h.knex("campaigns").where({ account_id: w.account.id, display_id: created.id }).first();
  const events: EventRow[] = await h.knex("events").where({ account_id: w.account.id, name: "campaign_changed" });
  await campaignConsumer().dispatch(deps, events);
  await campaignConsumer().dispatch(deps, events);
  const handle = deps.temporal.client.workflow.getHandle(campaignWorkflowId(deps.temporal.installationId, w.account.id, campaign.id));

  t.is(await deliveries(campaign.id), 0, "nothing before its time");
  const first = await startWorker();
  await first.runUntil(
    eventually(
      () => deliveries(campaign.id),
      (n) => n >= 120,
      "a first part of the audience",
      60_000,
    ),
  );
  const atStop = await deliveries(campaign.id);
  t.true(atStop < 500, `stopped mid-run (${atStop} sent)`);
  t.is((await h.knex("campaigns").where("id", campaign.id).first()).campaign_status, "active");

  const second = await startWorker();
  const result = await second.runUntil(handle.result());
  t.deepEqual(result, { sent: 500 });

  t.is(await deliveries(campaign.id), 500);
  const messages = await h
    .knex("messages")
    .where({ account_id: w.account.id, message_type: 1 })
    .whereRaw("additional_attributes->>'campaign_id' = ?", [String(campaign.id)]);
  t.is(messages.length, 500, "one message per contact");
  t.true(messages.every((m) => m.content === "We launched!" && m.sender_type === "User" && Number(m.sender_id) === w.account.admin.id));
  const perContact = await h
    .knex("conversations")
    .where({ account_id: w.account.id, inbox_id: w.api.id })
    .groupBy("contact_id")
    .select("contact_id")
    .count("* as n");
  t.is(perContact.length, 500);
  t.true(
    perContact.every((row) => Number(row.n) === 1),
    "no contact got two conversations",
  );
  const outsider = await h.knex("contacts").where({ account_id: w.account.id, name: "Not VIP" }).first();
  t.falsy(await h.knex("conversations").where({ contact_id: outsider.id }).first(), "contacts outside the audience are left alone");
  const shown = await expectOk(h.request("GET", `${w.base}/campaigns/${created.id}`, { token: w.account.admin.token }), "show");
  t.is(shown.campaign_status, "completed");
});
