import test from "ava";
import { SERVICE_VERSION } from "../../src/config";
import { DEFAULT_FEATURES } from "../../src/models/accountFeatures";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount | number) => `/api/v1/accounts/${typeof account === "number" ? account : account.id}`;

test("show (A3) answers the account field by field, for administrators and agents", async (t) => {
  const account = await createAccount(h, "Shown");
  const row = await h.knex("accounts").where({ id: account.id }).first();
  const response = await h.request("GET", path(account), { token: account.admin.token });
  t.is(response.status, 200);
  const { features, cache_keys, ...rest } = response.body;
  t.deepEqual(rest, {
    id: account.id,
    name: "Shown",
    locale: "en",
    domain: null,
    support_email: null,
    status: "active",
    settings: {},
    created_at: row.created_at.toISOString(),
    latest_service_version: SERVICE_VERSION,
    latest_chatwoot_version: SERVICE_VERSION,
    subscribed_features: [],
  });
  t.false("custom_attributes" in response.body, "absent while the account has none");
  t.deepEqual(features, Object.fromEntries([...DEFAULT_FEATURES].sort().map((name) => [name, true])));
  const updatedAt = Math.floor(row.updated_at.getTime() / 1000);
  t.deepEqual(cache_keys, { label: updatedAt, inbox: updatedAt, team: updatedAt });

  const asAgent = await h.request("GET", path(account), { token: account.agent.token });
  t.is(asAgent.status, 200);
  t.deepEqual(asAgent.body, response.body);
});

test("update (A2) assigns columns, merges settings and custom attributes, and audits the change", async (t) => {
  const account = await createAccount(h, "Before");
  const response = await h.request("PATCH", path(account), {
    token: account.admin.token,
    body: {
      name: "After",
      locale: "de",
      domain: "support.example.com",
      support_email: "Help@Example.com",
      auto_resolve_after: 60,
      auto_resolve_message: "Closing this",
      auto_resolve_ignore_waiting: true,
      industry: "Retail",
      company_size: "11-50",
      timezone: "Europe/Berlin",
    },
  });
  t.is(response.status, 200);
  t.like(response.body, {
    id: account.id,
    name: "After",
    locale: "de",
    domain: "support.example.com",
    support_email: "help@example.com",
    status: "active",
    settings: { auto_resolve_after: 60, auto_resolve_message: "Closing this", auto_resolve_ignore_waiting: true },
  });
  t.deepEqual(response.body.custom_attributes, {
    plan_name: null,
    subscribed_quantity: null,
    subscription_status: null,
    subscription_ends_on: null,
    industry: "Retail",
    company_size: "11-50",
    timezone: "Europe/Berlin",
  });
  t.false("latest_service_version" in response.body, "only show reports the version");

  const second = await h.request("PATCH", path(account), { token: account.admin.token, body: { auto_resolve_after: null, industry: "Travel" } });
  t.is(second.status, 200);
  t.deepEqual(second.body.settings, { auto_resolve_after: null, auto_resolve_message: "Closing this", auto_resolve_ignore_waiting: true });
  t.is(second.body.custom_attributes.industry, "Travel");
  t.is(second.body.custom_attributes.timezone, "Europe/Berlin");
  const shown = await h.request("GET", path(account), { token: account.agent.token });
  t.like(shown.body, { name: "After", settings: second.body.settings, custom_attributes: second.body.custom_attributes });

  const audits = await h.knex("audit_logs").where({ auditable_type: "Account", auditable_id: account.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => a.action),
    ["update", "update"],
  );
  t.like(audits[0], { account_id: account.id, user_id: account.admin.id, user_type: "User", username: account.admin.email, version: 1 });
  t.deepEqual(audits[0].audited_changes.name, ["Before", "After"]);
  t.deepEqual(audits[0].audited_changes.locale, ["en", "de"]);
  t.deepEqual(audits[0].audited_changes.settings, [{}, { auto_resolve_after: 60, auto_resolve_message: "Closing this", auto_resolve_ignore_waiting: true }]);
  t.false("updated_at" in audits[0].audited_changes);
  t.deepEqual(Object.keys(audits[1].audited_changes).sort(), ["custom_attributes", "settings"]);
  t.is(audits[1].version, 2);
});

test("an agent may not update: 401 as Chatwoot's Pundit, and nothing changes", async (t) => {
  const account = await createAccount(h, "Kept");
  const response = await h.request("PATCH", path(account), { token: account.agent.token, body: { name: "Agent was here" } });
  t.is(response.status, 401);
  t.deepEqual(response.body, { error: "You are not authorized to do this action" });
  t.is((await h.knex("accounts").where({ id: account.id }).first()).name, "Kept");
  t.deepEqual(await h.knex("audit_logs").where({ auditable_type: "Account", auditable_id: account.id }), []);
});

test("validation errors are 422 in Chatwoot's words and write nothing", async (t) => {
  const account = await createAccount(h, "Valid");
  const before = await h.knex("accounts").where({ id: account.id }).first();
  const cases: [unknown, string, string][] = [
    [{ auto_resolve_after: 9 }, "Auto resolve after must be greater than or equal to 10", "auto_resolve_after"],
    [{ auto_resolve_after: 1439857 }, "Auto resolve after must be less than or equal to 1439856", "auto_resolve_after"],
    [{ auto_resolve_after: "60" }, "Auto resolve after must be of type integer", "auto_resolve_after"],
    [{ auto_resolve_after: 60.5 }, "Auto resolve after must be of type integer", "auto_resolve_after"],
    [{ auto_resolve_ignore_waiting: "yes" }, "Auto resolve ignore waiting must be of type boolean", "auto_resolve_ignore_waiting"],
    [{ name: "" }, "Name can't be blank", "name"],
    [{ name: "X", domain: "d".repeat(101) }, "Domain is too long (maximum is 100 characters)", "domain"],
    [{ support_email: "not an email" }, "Support email is invalid", "support_email"],
    [{ industry: 5 }, "Industry must be of type string", "industry"],
  ];
  for (const [body, message, attribute] of cases) {
    const response = await h.request("PATCH", path(account), { token: account.admin.token, body: { locale: "fr", ...(body as object) } });
    t.is(response.status, 422, JSON.stringify(body));
    t.deepEqual(response.body, { message, attributes: [attribute] });
  }
  t.deepEqual(await h.knex("accounts").where({ id: account.id }).first(), before);
  t.deepEqual(await h.knex("audit_logs").where({ auditable_type: "Account", auditable_id: account.id }), []);
});

test("another account's users get 404 on show and update (Chatwoot looks among the user's own accounts)", async (t) => {
  const a = await createAccount(h, "A");
  const b = await createAccount(h, "B");
  for (const token of [b.admin.token, b.agent.token]) {
    const shown = await h.request("GET", path(a), { token });
    t.is(shown.status, 404);
    t.deepEqual(shown.body, { error: "Resource could not be found" });
    const updated = await h.request("PATCH", path(a), { token, body: { name: "Hijacked" } });
    t.is(updated.status, 404);
  }
  t.is((await h.knex("accounts").where({ id: a.id }).first()).name, "A");
});

test("unknown and non-numeric account ids are 404", async (t) => {
  const account = await createAccount(h);
  for (const id of ["999999999", "abc", "1e", "0"]) {
    for (const method of ["GET", "PATCH"]) {
      const response = await h.request(method, `/api/v1/accounts/${id}`, { token: account.admin.token, body: method === "PATCH" ? { name: "x" } : undefined });
      t.is(response.status, 404, `${method} ${id}`);
      t.deepEqual(response.body, { error: "Resource could not be found" });
    }
  }
});
