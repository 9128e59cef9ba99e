import os from "node:os";
import { createInbox } from "../../test/support/conversationFactories";
import { createAccount } from "../../test/support/factories";
import { expectOk, startHarness } from "../../test/support/harness";

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

/**
 * A one-off campaign to N contacts (`BENCH_CAMPAIGN_CONTACTS`, default 10,000) carrying its audience's
 * label, made through the API and run as in production: the relay hands its event to the campaign
 * consumer, which starts campaignWorkflow on the worker in this process. Sends are paced at
 * `BENCH_CAMPAIGN_RATE` a second (default 1000, the most CAMPAIGN_SENDS_PER_SECOND allows, so the
 * figure is what the sending costs rather than the pace). Prints messages/s from the first message to
 * the last, the time from the request to `completed`, and the duplicates and misses found by counting
 * the campaign's messages per contact (both must be 0), with the load average before and after.
 */
export async function run() {
  const n = Number(process.env.BENCH_CAMPAIGN_CONTACTS ?? 10_000);
  const rate = Number(process.env.BENCH_CAMPAIGN_RATE ?? 1000);
  // The worker's pool as `npm start` sizes it (src/db: ten connections).
  const h = await startHarness({ relay: true, poolMax: 10, settings: { campaignSendsPerSecond: rate } });
  try {
    const account = await createAccount(h);
    const inbox = await createInbox(h, account, { name: "Texts" });
    const base = `/api/v1/accounts/${account.id}`;
    const vip = await expectOk(h.request("POST", `${base}/labels`, { token: account.admin.token, body: { title: "vip" } }), "label");
    for (let i = 0; i < n; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({ account_id: account.id, name: `Contact ${i + k}`, labels: ["vip"] }));
      await h.knex("contacts").insert(rows);
    }
    // Contacts outside the audience must be left alone.
    await h.knex("contacts").insert(Array.from({ length: 100 }, (_, k) => ({ account_id: account.id, name: `Other ${k}`, labels: ["other"] })));
    console.log(`${n} contacts in the audience, sends paced at ${rate}/s; load average before: ${loadAverage()}`);

    const startedAt = Date.now();
    const created = await expectOk(
      h.request("POST", `${base}/campaigns`, {
        token: account.admin.token,
        body: { title: "Bench", message: "Our bench campaign", inbox_id: inbox.id, sender_id: account.admin.id, audience: [{ type: "Label", id: vip.id }] },
      }),
      "campaign",
    );
    const campaign = await h.knex("campaigns").where({ account_id: account.id, display_id: created.id }).first();
    const timeoutMs = Number(process.env.BENCH_CAMPAIGN_TIMEOUT_MS ?? 30 * 60_000);
    let status = campaign.campaign_status as string;
    let lastReport = Date.now();
    while (status !== "completed" && Date.now() - startedAt < timeoutMs) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = (await h.knex("campaigns").where("id", campaign.id).first("campaign_status")).campaign_status;
      if (Date.now() - lastReport > 15_000) {
        lastReport = Date.now();
        const [{ count }] = await h.knex("campaign_deliveries").where("campaign_id", campaign.id).count("* as count");
        console.log(`  ${count} sent after ${((Date.now() - startedAt) / 1000).toFixed(0)} s (load average ${loadAverage()})`);
      }
    }
    const finishedMs = Date.now() - startedAt;

    const perContact: { contact_id: string; messages: string }[] = await h
      .knex("messages as m")
      .join("conversations as c", "c.id", "m.conversation_id")
      .where({ "m.account_id": account.id, "m.message_type": 1 })
      .whereRaw("m.additional_attributes->>'campaign_id' = ?", [String(campaign.id)])
      .groupBy("c.contact_id")
      .select("c.contact_id", h.knex.raw("count(*) as messages"));
    const messages = perContact.reduce((sum, row) => sum + Number(row.messages), 0);
    const duplicates = perContact.reduce((sum, row) => sum + Math.max(0, Number(row.messages) - 1), 0);
    const outsiders: { count: string }[] = await h
      .knex("contacts")
      .where({ account_id: account.id })
      .whereRaw("labels && array['other']")
      .whereIn(
        "id",
        perContact.map((row) => row.contact_id),
      )
      .count("* as count");
    const span: { first: Date; last: Date } = await h
      .knex("messages")
      .where({ account_id: account.id, message_type: 1 })
      .whereRaw("additional_attributes->>'campaign_id' = ?", [String(campaign.id)])
      .first(h.knex.raw("min(created_at) as first, max(created_at) as last"));
    const sendingMs = new Date(span.last).getTime() - new Date(span.first).getTime();

    console.log(
      `campaign ${status} in ${(finishedMs / 1000).toFixed(1)} s from the request (first message after ${new Date(span.first).getTime() - startedAt} ms)`,
    );
    console.log(
      `messages: ${messages} to ${perContact.length} contacts; ${((Math.max(0, messages - 1) / Math.max(1, sendingMs)) * 1000).toFixed(0)} messages/s first to last`,
    );
    console.log(`duplicates: ${duplicates}, missed: ${n - perContact.length}, outside the audience: ${Number(outsiders[0]!.count)}`);
    console.log(`load average after: ${loadAverage()}`);
  } finally {
    await h.close();
  }
}
