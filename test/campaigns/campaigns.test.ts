import test from "ava";
import { createAccount } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";
import { campaignWorld } from "./support";

const h = useHarness(test);

test("a one-off campaign on an API inbox: Chatwoot's shape, with scheduled_at and audience, admins only", async (t) => {
  const w = await campaignWorld(h);
  const at = new Date(Date.now() + 3_600_000);
  const created = await h.request("POST", `${w.base}/campaigns`, {
    token: w.account.admin.token,
    body: {
      campaign: {
        title: "Spring sale",
        message: "20% off today",
        inbox_id: w.api.id,
        sender_id: w.account.admin.id,
        scheduled_at: at.toISOString(),
        audience: [{ type: "Label", id: w.vip.id }],
      },
    },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, {
    id: 1,
    title: "Spring sale",
    message: "20% off today",
    account_id: w.account.id,
    campaign_type: "one_off",
    campaign_status: "active",
    enabled: true,
    scheduled_at: Math.floor(at.getTime() / 1000),
    audience: [{ type: "Label", id: w.vip.id }],
    inbox: { id: w.api.id, name: "Texts" },
    sender: { id: w.account.admin.id },
    trigger_rules: {},
  });
  const event = await h.knex("events").where({ account_id: w.account.id, name: "campaign_changed" }).first();
  t.truthy(event, "its workflow is started through the outbox");

  const website = await expectOk(
    h.request("POST", `${w.base}/campaigns`, {
      token: w.account.admin.token,
      body: {
        title: "Welcome",
        message: "Hi!",
        inbox_id: w.website.id,
        scheduled_at: at.toISOString(),
        trigger_rules: { url: "https://shop.example/pricing", time_on_page: 10 },
      },
    }),
    "website campaign",
  );
  t.like(website, { id: 2, campaign_type: "ongoing" });
  t.false("scheduled_at" in website);
  t.deepEqual(
    (await expectOk(h.request("GET", `${w.base}/campaigns`, { token: w.account.admin.token }), "list")).map((c: { id: number }) => c.id),
    [1, 2],
  );
  t.is((await h.request("GET", `${w.base}/campaigns`, { token: w.account.agent.token })).status, 401);
  t.is((await h.request("POST", `${w.base}/campaigns`, { token: w.account.agent.token, body: { title: "x" } })).status, 401);
});

test("validation in Chatwoot's words; update and delete by display id; another account's is a 404", async (t) => {
  const w = await campaignWorld(h);
  const other = await createAccount(h);
  const blank = await h.request("POST", `${w.base}/campaigns`, { token: w.account.admin.token, body: { campaign: { title: " " } } });
  t.deepEqual([blank.status, blank.body.attributes], [422, ["title", "message", "inbox"]]);
  const badUrl = await h.request("POST", `${w.base}/campaigns`, {
    token: w.account.admin.token,
    body: { title: "A", message: "B", inbox_id: w.website.id, trigger_rules: { url: "javascript:alert(1)" } },
  });
  t.deepEqual([badUrl.status, badUrl.body.message], [422, "Url invalid"]);
  const badLabel = await h.request("POST", `${w.base}/campaigns`, {
    token: w.account.admin.token,
    body: { title: "A", message: "B", inbox_id: w.api.id, audience: [{ type: "Label", id: 999_999 }] },
  });
  t.deepEqual(badLabel.body.attributes, ["audience"]);

  const campaign = await expectOk(
    h.request("POST", `${w.base}/campaigns`, { token: w.account.admin.token, body: { title: "A", message: "B", inbox_id: w.api.id } }),
    "one",
  );
  const updated = await h.request("PATCH", `${w.base}/campaigns/${campaign.id}`, {
    token: w.account.admin.token,
    body: { campaign: { title: "Renamed", enabled: false } },
  });
  t.like(updated.body, { id: campaign.id, title: "Renamed", enabled: false, message: "B" });
  t.is((await h.request("GET", `/api/v1/accounts/${other.id}/campaigns/${campaign.id}`, { token: other.admin.token })).status, 404);

  await h.knex("campaigns").where({ account_id: w.account.id, display_id: campaign.id }).update({ campaign_status: "completed" });
  const done = await h.request("PATCH", `${w.base}/campaigns/${campaign.id}`, { token: w.account.admin.token, body: { title: "Again" } });
  t.deepEqual([done.status, done.body.message], [422, "Status The campaign is already completed"]);
  t.is((await h.request("DELETE", `${w.base}/campaigns/${campaign.id}`, { token: w.account.admin.token })).status, 200);
  t.is((await h.request("GET", `${w.base}/campaigns/${campaign.id}`, { token: w.account.admin.token })).status, 404);
});

test("50 campaigns created at once get distinct display ids", async (t) => {
  const w = await campaignWorld(h);
  const created = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      h.request("POST", `${w.base}/campaigns`, { token: w.account.admin.token, body: { title: `C${i}`, message: "m", inbox_id: w.api.id } }),
    ),
  );
  t.true(created.every((r) => r.status === 200));
  t.deepEqual(
    created.map((r) => r.body.id).sort((a, b) => a - b),
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
});
