import test from "ava";
import { importContactChunk, startContactImport } from "../../src/contactTransfers/imports";
import { createContact } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { ownQueue, tempStorage, useHarness } from "../support/harness";
import { downloadCsv, finishedTransfer, postImport, withTransferApi } from "./support";
import { writeFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// Imports run on a queue of their own (withTransferApi), with the worker it starts.
const harness = useHarness(test, { settings: { storage: tempStorage() } });

test("import is for administrators: an agent gets 401 and nothing is made", (t) =>
  withTransferApi(harness, "contact-import", async (h) => {
    const account = await createAccount(h);
    const response = await postImport(h, account.id, account.agent.token, "name,email\nAnn,ann@example.com\n");
    t.is(response.status, 401);
    t.is((await h.knex("data_imports").where("account_id", account.id)).length, 0);
  }));

test("no file, a blank field or an empty file is Chatwoot's 422 File is blank", (t) =>
  withTransferApi(harness, "contact-import", async (h) => {
    const account = await createAccount(h);
    const json = await h.request("POST", `/api/v1/accounts/${account.id}/contacts/import`, { token: account.admin.token, body: {} });
    t.is(json.status, 422);
    t.deepEqual(json.body, { error: "File is blank" });
    const empty = await postImport(h, account.id, account.admin.token, "");
    t.is(empty.status, 422);
    t.deepEqual(empty.body, { error: "File is blank" });
    t.is((await h.knex("data_imports").where("account_id", account.id)).length, 0);
  }));

test("a CSV of good and bad rows: good rows become or update contacts, bad ones are in the failed-records CSV", (t) =>
  withTransferApi(harness, "contact-import", async (h) => {
    const account = await createAccount(h);
    const { contact: zed } = await createContact(h, account, { name: "Old Zed", email: "zed@example.com" });
    const { contact: pat } = await createContact(h, account, { name: "Pat", identifier: "crm-pat" });
    await createContact(h, account, { name: "Quinn", phone_number: "+14155550199" });
    const csv = [
      "Name,Email,Phone_Number,identifier,company,city,plan",
      "Ann,Ann@Example.com,+14155550100,crm-1,Acme,Paris,gold",
      "Bob,bob@example.com,14155550101,,,,",
      "Carl,not-an-email,,,,,",
      "Dan,,12ab,,,,",
      "Eve,ann@example.com,,,,,",
      "New Zed,zed@example.com,,,,,silver",
      "Pat Two,,+14155550199,crm-pat,,,",
      ",,,,,,",
      '"Quoted, Name",quoted@example.com,,,,,',
    ].join("\r\n");
    const response = await postImport(h, account.id, account.admin.token, csv);
    t.is(response.status, 200);
    t.is(response.body, undefined, "Chatwoot's empty 200");
    const done = await finishedTransfer(h, response.headers.get("location"), account.admin.token);
    t.like(done, { status: "completed", data_type: "contacts", file_name: "contacts.csv", total_records: 9, processed_records: 4, rejected_records: 5 });

    const contacts = await h.knex("contacts").where("account_id", account.id).orderBy("id");
    t.is(contacts.length, 6, "Zed, Pat and Quinn, and Ann, Bob and Quoted made; Zed updated in place");
    const ann = contacts.find((c) => c.email === "ann@example.com");
    t.like(ann, { name: "Ann", phone_number: "+14155550100", identifier: "crm-1", location: "Paris", contact_type: "lead" });
    t.deepEqual(ann.additional_attributes, { company_name: "Acme", city: "Paris" });
    t.deepEqual(ann.custom_attributes, { city: "Paris", plan: "gold" });
    t.is(contacts.find((c) => c.email === "bob@example.com").phone_number, "+14155550101", "a + put in front");
    t.like(
      contacts.find((c) => Number(c.id) === zed.id),
      { name: "New Zed", email: "zed@example.com", custom_attributes: { plan: "silver" } },
    );
    t.like(
      contacts.find((c) => Number(c.id) === pat.id),
      { name: "Pat", phone_number: null },
      "a row whose phone number is another contact's leaves Pat alone",
    );
    t.truthy(contacts.find((c) => c.name === "Quoted, Name"));

    t.truthy(done.failed_records_url);
    t.regex(new URL(done.failed_records_url).pathname, /\/\d{8}_contacts\.csv$/);
    const failed = await downloadCsv(h, done.failed_records_url);
    t.deepEqual(failed, [
      ["Name", "Email", "Phone_Number", "identifier", "company", "city", "plan", "errors"],
      ["Carl", "not-an-email", "", "", "", "", "", "Email Invalid email"],
      ["Dan", "", "12ab", "", "", "", "", "Phone number should be in e164 format"],
      ["Eve", "ann@example.com", "", "", "", "", "", "Email appears in an earlier row of the file"],
      ["Pat Two", "", "+14155550199", "crm-pat", "", "", "", "Phone number has already been taken"],
      ["", "", "", "", "", "", "", "Row has no name, email, phone_number or identifier"],
    ]);
    t.is((await h.knex("data_import_keys").where("data_import_id", done.id)).length, 0, "the file's keys go when it is done");
  }));

test("rows matching one contact by different keys update it in file order, attributes merged", (t) =>
  withTransferApi(harness, "contact-import", async (h) => {
    const account = await createAccount(h);
    const { contact: sam } = await createContact(h, account, { name: "Sam", identifier: "crm-7", email: "sam@example.com" });
    const { contact: kim } = await createContact(h, account, { name: "Kim", phone_number: "+14155550123" });
    const csv = ["name,email,identifier,phone_number,plan,tier", "Sam One,,crm-7,,gold,", "Sam Two,sam@example.com,,,,vip", ",,,+14155550123,,silver"].join(
      "\n",
    );
    const response = await postImport(h, account.id, account.admin.token, csv);
    t.is(response.status, 200);
    const done = await finishedTransfer(h, response.headers.get("location"), account.admin.token);
    t.like(done, { status: "completed", processed_records: 3, rejected_records: 0 });
    const contacts = await h.knex("contacts").where("account_id", account.id).orderBy("id");
    t.is(contacts.length, 2, "no contact made");
    t.like(
      contacts.find((c) => Number(c.id) === sam.id),
      { name: "Sam Two", identifier: "crm-7", email: "sam@example.com" },
    );
    t.deepEqual(contacts.find((c) => Number(c.id) === sam.id).custom_attributes, { plan: "gold", tier: "vip" });
    t.like(
      contacts.find((c) => Number(c.id) === kim.id),
      { name: "Kim", contact_type: "lead", custom_attributes: { tier: "silver" } },
    );
  }));

test("a malformed CSV fails the import with why; data_imports are the account's own", (t) =>
  withTransferApi(harness, "contact-import", async (h) => {
    const account = await createAccount(h);
    const other = await createAccount(h);
    const response = await postImport(h, account.id, account.admin.token, 'name,email\n"Ann,ann@example.com\n');
    t.is(response.status, 200);
    const done = await finishedTransfer(h, response.headers.get("location"), account.admin.token);
    t.is(done.status, "failed");
    t.regex(done.processing_errors, /^Malformed CSV: /);
    t.is((await h.knex("contacts").where("account_id", account.id)).length, 0);

    const list = await h.request("GET", `/api/v1/accounts/${account.id}/data_imports`, { token: account.admin.token });
    t.is(list.status, 200);
    t.deepEqual(
      list.body.payload.map((row: { id: number }) => row.id),
      [done.id],
    );
    const foreign = await h.request("GET", `/api/v1/accounts/${other.id}/data_imports/${done.id}`, { token: other.admin.token });
    t.is(foreign.status, 404);
    const asAgent = await h.request("GET", `/api/v1/accounts/${account.id}/data_imports/${done.id}`, { token: account.agent.token });
    t.is(asAgent.status, 401);
  }));

test("chunks run many times at once still write each row once", (t) =>
  withTransferApi(harness, "contact-import", async (h) => {
    const account = await createAccount(h);
    const rows = Array.from({ length: 2500 }, (_, i) => `Person ${i},p${i}@example.com,${i % 500 === 0 ? "bad" : ""}`);
    const dir = mkdtempSync(path.join(os.tmpdir(), "import-"));
    const file = path.join(dir, "many.csv");
    writeFileSync(file, ["name,email,phone_number", ...rows].join("\n"));
    // No worker polls this queue: the test runs the chunks itself, 50 at a time.
    const { deps } = ownQueue(h, "import-race");
    const id = await startContactImport(deps, { accountId: account.id, userId: account.admin.id, path: file, fileName: "many.csv" });
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(Array.from({ length: 50 }, () => importContactChunk(h.knex, { accountId: account.id, id }, 300)));
      if (results.some((r) => r.done)) break;
    }
    const row = await h.knex("data_imports").where("id", id).first();
    t.like(row, { total_records: 2500, processed_records: 2495, rejected_records: 5 });
    const counted = await h.knex("contacts").where("account_id", account.id).countDistinct("email as emails").count("* as n").first();
    t.is(Number(counted!.n), 2495);
    t.is(Number(counted!.emails), 2495);
    await deps.temporal.client.workflow.getHandle(`contact-import-${deps.temporal.installationId}-${id}`).terminate("test");
  }));
