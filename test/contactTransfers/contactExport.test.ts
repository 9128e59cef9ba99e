import test from "ava";
import { createContact } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, type Harness, tempStorage, useHarness } from "../support/harness";
import { downloadCsv, finishedTransfer, withTransferApi } from "./support";

// The relay turns contact_export_completed into the user's notification.
const harness = useHarness(test, { relay: true, settings: { storage: tempStorage() } });

const exportPath = (accountId: number) => `/api/v1/accounts/${accountId}/contacts/export`;

async function world(h: Harness) {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  await expectOk(api.post("/labels", { title: "vip" }), "label");
  const made: Record<string, number> = {};
  for (const [name, attributes] of [
    ["Ann", { email: "ann@keep.example", phone_number: "+14155550100", custom_attributes: { plan: "gold" } }],
    ["Bob", { email: "bob@other.example" }],
    ["Cy", { identifier: "crm-cy" }],
    ["Dee", { email: "dee@keep.example" }],
    ["Nameonly", {}],
  ] as const) {
    made[name] = (await createContact(h, account, { name, ...attributes })).contact.id;
  }
  await expectOk(api.post(`/contacts/${made.Bob}/labels`, { labels: ["vip"] }), "tag Bob");
  await expectOk(api.post(`/contacts/${made.Nameonly}/labels`, { labels: ["vip"] }), "tag Nameonly");
  return { account, made };
}

async function exported(h: Harness, account: { id: number; admin: { token: string } }, body: unknown) {
  const response = await h.request("POST", exportPath(account.id), { token: account.admin.token, body });
  if (response.status !== 200) throw new Error(`export: ${response.status} ${JSON.stringify(response.body)}`);
  const done = await finishedTransfer(h, response.headers.get("location"), account.admin.token);
  return { response, done, rows: await downloadCsv(h, done.download_url) };
}

test("an export of a filter has the requested contact columns of exactly the filter's contacts, and notifies the caller with the link", (t) =>
  withTransferApi(harness, "contact-export", async (h) => {
    const { account, made } = await world(h);
    const { response, done, rows } = await exported(h, account, {
      column_names: ["name", "email", "bogus", "custom_attributes"],
      payload: [{ attribute_key: "email", filter_operator: "contains", values: ["keep.example"], query_operator: null }],
    });
    t.is(response.body, undefined, "Chatwoot's empty 200");
    t.like(done, { status: "completed", data_type: "contacts", total_records: 2, processed_records: 2, column_names: ["name", "email", "custom_attributes"] });
    t.deepEqual(rows, [
      ["name", "email", "custom_attributes"],
      ["Ann", "ann@keep.example", '{"plan":"gold"}'],
      ["Dee", "dee@keep.example", "{}"],
    ]);

    const notification = await eventually(
      () => h.knex("notifications").where({ account_id: account.id, user_id: account.admin.id, notification_type: "contact_export_completed" }).first(),
      Boolean,
      "the export's notification",
    );
    t.like(notification, { primary_actor_type: "DataExport", primary_actor_id: done.id });
    const list = await expectOk(h.request("GET", `/api/v1/accounts/${account.id}/notifications`, { token: account.admin.token }), "notifications");
    const shown = list.data.payload.find((n: { notification_type: string }) => n.notification_type === "contact_export_completed");
    t.like(shown, { primary_actor_type: "DataExport", primary_actor_id: done.id, push_message_title: "Your contact export is ready (2 contacts)" });
    t.deepEqual(await downloadCsv(h, shown.primary_actor.download_url), rows, "the notification's link is the same CSV");
    t.truthy(made.Ann);
  }));

test("without a filter: a label's contacts, else every contact with an email, phone or identifier, in Chatwoot's default columns", (t) =>
  withTransferApi(harness, "contact-export", async (h) => {
    const { account, made } = await world(h);
    const labelled = await exported(h, account, { label: "vip", column_names: ["id", "name"] });
    t.deepEqual(labelled.rows, [
      ["id", "name"],
      [String(made.Bob), "Bob"],
      [String(made.Nameonly), "Nameonly"],
    ]);
    const all = await exported(h, account, {});
    t.deepEqual(all.rows, [
      ["id", "name", "email", "phone_number"],
      [String(made.Ann), "Ann", "ann@keep.example", "+14155550100"],
      [String(made.Bob), "Bob", "bob@other.example", ""],
      [String(made.Cy), "Cy", "", ""],
      [String(made.Dee), "Dee", "dee@keep.example", ""],
    ]);
  }));

test("export is for administrators; a bad filter is the filter's 422; exports are the account's own", (t) =>
  withTransferApi(harness, "contact-export", async (h) => {
    const { account } = await world(h);
    const other = await createAccount(h);
    const asAgent = await h.request("POST", exportPath(account.id), { token: account.agent.token, body: {} });
    t.is(asAgent.status, 401);
    const badFilter = await h.request("POST", exportPath(account.id), {
      token: account.admin.token,
      body: { payload: [{ attribute_key: "shoe_size", filter_operator: "equal_to", values: ["9"] }] },
    });
    t.is(badFilter.status, 422);
    t.regex(badFilter.body.error, /^Invalid attribute key - \[shoe_size\]/);
    const badColumns = await h.request("POST", exportPath(account.id), { token: account.admin.token, body: { column_names: "id,name" } });
    t.is(badColumns.status, 422);
    t.is((await h.knex("data_exports").where("account_id", account.id)).length, 0, "nothing started for a refused request");

    const { done } = await exported(h, account, {});
    t.is((await h.request("GET", `/api/v1/accounts/${other.id}/data_exports/${done.id}`, { token: other.admin.token })).status, 404);
    const list = await expectOk(h.request("GET", `/api/v1/accounts/${account.id}/data_exports`, { token: account.admin.token }), "list");
    t.deepEqual(
      list.payload.map((row: { id: number }) => row.id),
      [done.id],
    );
  }));
