import test from "ava";
import { createAccount } from "../support/factories";
import { createContact, createInbox } from "../support/conversationFactories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const labelsPath = (accountId: number) => `/api/v1/accounts/${accountId}/labels`;
const denied = { error: "You are not authorized to do this action" };

test("an administrator creates a label: downcased title, default colour, audited; agents list but cannot manage", async (t) => {
  const account = await createAccount(h);
  const response = await h.request("POST", labelsPath(account.id), {
    token: account.admin.token,
    body: { label: { title: "VIP-Customer", description: "Pays well", show_on_sidebar: true } },
  });
  t.is(response.status, 200);
  const { id, ...rest } = response.body;
  t.deepEqual(rest, { title: "vip-customer", description: "Pays well", color: "#1f93ff", show_on_sidebar: true });
  const audit = await h.knex("audit_logs").where({ auditable_type: "Label", auditable_id: id }).first();
  t.like(audit, { action: "create", username: account.admin.email });
  t.is(Number(audit.account_id), account.id);
  t.deepEqual(audit.audited_changes, { title: "vip-customer", description: "Pays well", color: "#1f93ff", show_on_sidebar: true, account_id: account.id });

  const list = await h.request("GET", labelsPath(account.id), { token: account.agent.token });
  t.deepEqual([list.status, list.body], [200, { payload: [response.body] }]);
  for (const [method, path, body] of [
    ["POST", labelsPath(account.id), { title: "other" }],
    ["GET", `${labelsPath(account.id)}/${id}`, undefined],
    ["PATCH", `${labelsPath(account.id)}/${id}`, { color: "#000000" }],
    ["DELETE", `${labelsPath(account.id)}/${id}`, undefined],
  ] as const) {
    const denial = await h.request(method, path, { token: account.agent.token, body });
    t.deepEqual([denial.status, denial.body], [401, denied], `${method} ${path}`);
  }
  const shown = await expectOk(h.request("GET", `${labelsPath(account.id)}/${id}`, { token: account.admin.token }), "show");
  t.deepEqual(shown, response.body);
});

test("titles are unique per account whatever their case, and must be letters, digits, hyphens or underscores", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  await expectOk(h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "billing" } }), "first");
  const dup = await h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "BILLING" } });
  t.deepEqual([dup.status, dup.body], [422, { message: "Title has already been taken", attributes: ["title"] }]);
  t.is((await h.request("POST", labelsPath(other.id), { token: other.admin.token, body: { title: "billing" } })).status, 200, "another account may use it");

  const spaced = await h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "needs review" } });
  t.deepEqual([spaced.status, spaced.body], [422, { message: "Title is invalid", attributes: ["title"] }]);
  const blank = await h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { description: "no title" } });
  t.deepEqual([blank.status, blank.body], [422, { message: "Title must not be blank, Title is invalid", attributes: ["title"] }]);
  const unicode = await expectOk(h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "Ünïcode_2" } }), "unicode");
  t.is(unicode.title, "ünïcode_2");

  const racing = await Promise.all(
    Array.from({ length: 50 }, () => h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "Race" } })),
  );
  t.is(racing.filter((r) => r.status === 200).length, 1);
  t.true(racing.filter((r) => r.status !== 200).every((r) => r.status === 422 && r.body.message === "Title has already been taken"));
  t.is((await h.knex("labels").where({ account_id: account.id, title: "race" })).length, 1);
});

test("update changes fields and audits the diff; a renamed label follows onto conversations and contacts", async (t) => {
  const account = await createAccount(h);
  const label = await expectOk(h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "old-name" } }), "label");
  const inbox = await createInbox(h, account);
  const { contact, sourceId } = await createContact(h, account, { inbox_id: inbox.id, email: "tagged@example.com" });
  const conversation = await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/conversations`, {
      token: account.admin.token,
      body: { source_id: sourceId, inbox_id: inbox.id, contact_id: contact.id },
    }),
    "conversation",
  );
  await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/conversations/${conversation.id}/labels`, {
      token: account.admin.token,
      body: { labels: ["old-name", "keep"] },
    }),
    "conversation labels",
  );
  await expectOk(accountApi(h, account).post(`/contacts/${contact.id}/labels`, { labels: ["keep", "old-name"] }), "contact labels");

  const response = await h.request("PATCH", `${labelsPath(account.id)}/${label.id}`, {
    token: account.admin.token,
    body: { title: "New-Name", color: "#ff0000", show_on_sidebar: false },
  });
  t.is(response.status, 200);
  t.deepEqual(response.body, { id: label.id, title: "new-name", description: null, color: "#ff0000", show_on_sidebar: false });
  const audit = await h.knex("audit_logs").where({ auditable_type: "Label", auditable_id: label.id, action: "update" }).first();
  t.deepEqual(audit.audited_changes, { title: ["old-name", "new-name"], color: ["#1f93ff", "#ff0000"], show_on_sidebar: [null, false] });

  t.deepEqual((await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first()).labels, ["new-name", "keep"]);
  t.deepEqual((await h.knex("contacts").where({ id: contact.id }).first()).labels, ["keep", "new-name"]);
  const updates = await h.knex("events").where({ account_id: account.id, name: "conversation_updated" }).orderBy("id", "desc");
  t.true(
    updates.some((e) => JSON.stringify(e.payload.changed_attributes ?? []).includes("new-name")),
    "the conversation's label change is an ordinary conversation_updated event",
  );

  const taken = await expectOk(h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "taken" } }), "taken");
  const clash = await h.request("PUT", `${labelsPath(account.id)}/${label.id}`, { token: account.admin.token, body: { label: { title: "TAKEN" } } });
  t.deepEqual([clash.status, clash.body], [422, { message: "Title has already been taken", attributes: ["title"] }]);
  const invalid = await h.request("PATCH", `${labelsPath(account.id)}/${taken.id}`, { token: account.admin.token, body: { title: "a b" } });
  t.deepEqual([invalid.status, invalid.body], [422, { message: "Title is invalid", attributes: ["title"] }]);
});

test("delete removes the label, audited; another account's label is 404", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const label = await expectOk(h.request("POST", labelsPath(account.id), { token: account.admin.token, body: { title: "gone" } }), "label");
  const foreign = await h.request("DELETE", `${labelsPath(other.id)}/${label.id}`, { token: other.admin.token });
  t.deepEqual([foreign.status, foreign.body], [404, { error: "Resource could not be found" }]);
  const response = await h.request("DELETE", `${labelsPath(account.id)}/${label.id}`, { token: account.admin.token });
  t.is(response.status, 200);
  t.falsy(await h.knex("labels").where({ id: label.id }).first());
  const audit = await h.knex("audit_logs").where({ auditable_type: "Label", auditable_id: label.id, action: "destroy" }).first();
  t.is(audit.audited_changes.title, "gone");
});

test("contact labels are listed and replaced by any member; the contacts list filters by them", async (t) => {
  const account = await createAccount(h);
  const { contact: first } = await createContact(h, account, { name: "First", email: "first@example.com" });
  const { contact: second } = await createContact(h, account, { name: "Second", email: "second@example.com" });
  await createContact(h, account, { name: "Third", email: "third@example.com" });
  const path = `/api/v1/accounts/${account.id}/contacts/${first.id}/labels`;

  t.deepEqual((await h.request("GET", path, { token: account.agent.token })).body, { payload: [] });
  const set = await h.request("POST", path, { token: account.agent.token, body: { labels: ["lead", " vip ", "lead"] } });
  t.deepEqual([set.status, set.body], [200, { payload: ["lead", "vip"] }]);
  t.deepEqual((await h.request("GET", path, { token: account.admin.token })).body, { payload: ["lead", "vip"] });
  await expectOk(accountApi(h, account).post(`/contacts/${second.id}/labels`, { labels: ["churned"] }), "second");

  const names = async (query: string) =>
    (await expectOk(accountApi(h, account, account.agent.token).get(`/contacts?${query}`), query)).payload.map((c: { name: string }) => c.name).sort();
  t.deepEqual(await names("labels[]=vip"), ["First"]);
  t.deepEqual(await names("labels[]=vip&labels[]=churned"), ["First", "Second"]);
  t.deepEqual(await names("labels=churned"), ["Second"]);
  t.deepEqual(await names("labels[]=nothing"), []);
  const filtered = await expectOk(accountApi(h, account, account.agent.token).get("/contacts?labels[]=vip"), "count");
  t.is(filtered.meta.count, 1);

  const cleared = await h.request("POST", path, { token: account.agent.token, body: { labels: [] } });
  t.deepEqual(cleared.body, { payload: [] });
  const missing = await h.request("POST", path, { token: account.agent.token, body: {} });
  t.deepEqual([missing.status, missing.body.attributes], [422, ["labels"]]);
  const stranger = await createAccount(h);
  const foreign = await accountApi(h, stranger).get(`/contacts/${first.id}/labels`);
  t.is(foreign.status, 404);
});

test("the contacts list accepts Chatwoot's sorts and ignores others", async (t) => {
  const account = await createAccount(h);
  await createContact(h, account, {
    name: "bravo",
    email: "b@example.com",
    phone_number: "+15550000002",
    additional_attributes: { company_name: "Zeta", city: "Austin", country: "Chile" },
  });
  await createContact(h, account, {
    name: "Alpha",
    email: "c@example.com",
    phone_number: "+15550000001",
    additional_attributes: { company_name: "Acme", city: "Berlin", country: "Albania" },
  });
  await createContact(h, account, { name: "charlie", email: "a@example.com", phone_number: "+15550000003" });
  const order = async (sort: string) =>
    (await expectOk(accountApi(h, account, account.agent.token).get(`/contacts?sort=${sort}`), sort)).payload.map((c: { name: string }) => c.name);
  t.deepEqual(await order("name"), ["Alpha", "bravo", "charlie"], "case-insensitive");
  t.deepEqual(await order("-name"), ["charlie", "bravo", "Alpha"]);
  t.deepEqual(await order("email"), ["charlie", "bravo", "Alpha"]);
  t.deepEqual(await order("-phone_number"), ["charlie", "bravo", "Alpha"]);
  t.deepEqual(await order("created_at"), ["bravo", "Alpha", "charlie"]);
  t.deepEqual(await order("-created_at"), ["charlie", "Alpha", "bravo"]);
  t.deepEqual(await order("company"), ["Alpha", "bravo", "charlie"], "no company sorts last");
  t.deepEqual(await order("-company"), ["bravo", "Alpha", "charlie"]);
  t.deepEqual(await order("city"), ["bravo", "Alpha", "charlie"]);
  t.deepEqual(await order("country"), ["Alpha", "bravo", "charlie"]);
  t.is((await order("last_activity_at")).length, 3);
  // An unknown sort is no sort (Sift ignores it): the default order, never a column it names.
  t.deepEqual(await order("password"), await order(""));
});
