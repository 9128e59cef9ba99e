import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/webhooks`;

test("create, list, update and delete a webhook in Chatwoot's shapes", async (t) => {
  const account = await createAccount(h);
  const created = await h.request("POST", path(account), {
    token: account.admin.token,
    body: { url: "https://example.com/hooks/a", name: "CRM", subscriptions: ["message_created", "contact_created"] },
  });
  t.is(created.status, 200);
  const webhook = created.body.payload.webhook;
  t.like(webhook, { name: "CRM", url: "https://example.com/hooks/a", account_id: account.id, subscriptions: ["message_created", "contact_created"] });
  t.regex(webhook.secret, /^[1-9A-HJ-NP-Za-km-z]{24}$/);
  t.is(typeof webhook.id, "number");

  const listed = await h.request("GET", path(account), { token: account.admin.token });
  t.is(listed.status, 200);
  t.deepEqual(listed.body.payload.webhooks, [webhook]);

  const updated = await h.request("PATCH", `${path(account)}/${webhook.id}`, { token: account.admin.token, body: { subscriptions: ["conversation_created"] } });
  t.is(updated.status, 200);
  t.deepEqual(updated.body.payload.webhook, { ...webhook, subscriptions: ["conversation_created"] });

  const audits = await h.knex("audit_logs").where({ account_id: account.id, auditable_type: "Webhook", auditable_id: webhook.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => a.action),
    ["create", "update"],
  );
  t.deepEqual(audits[1].audited_changes, { subscriptions: [["message_created", "contact_created"], ["conversation_created"]] });
  t.false("secret" in audits[0].audited_changes);

  const deleted = await h.request("DELETE", `${path(account)}/${webhook.id}`, { token: account.admin.token });
  t.is(deleted.status, 200);
  t.is(deleted.body, undefined, "head :ok has an empty body");
  t.deepEqual((await h.request("GET", path(account), { token: account.admin.token })).body.payload.webhooks, []);
  t.is((await h.request("DELETE", `${path(account)}/${webhook.id}`, { token: account.admin.token })).status, 404);
});

test("a body wrapped under `webhook` works, and omitted subscriptions default to the first eight events", async (t) => {
  const account = await createAccount(h);
  const created = await h.request("POST", path(account), { token: account.admin.token, body: { webhook: { url: "https://example.com/hooks/wrapped" } } });
  t.is(created.status, 200);
  t.deepEqual(created.body.payload.webhook.subscriptions, [
    "conversation_status_changed",
    "conversation_updated",
    "conversation_created",
    "contact_created",
    "contact_updated",
    "message_created",
    "message_updated",
    "webwidget_triggered",
  ]);
});

test("validation errors answer 422 as Chatwoot and write nothing", async (t) => {
  const account = await createAccount(h);
  const before = await h.knex("webhooks").where("account_id", account.id).count("* as n").first();
  const cases: [unknown, string, string][] = [
    [{ url: "not a url" }, "Url is invalid", "url"],
    [{ url: "ftp://example.com/x" }, "Url is invalid", "url"],
    [{ url: "https://example.com/x", subscriptions: ["nope"] }, "Subscriptions Invalid events", "subscriptions"],
    [{ url: "https://example.com/x", subscriptions: [] }, "Subscriptions Invalid events", "subscriptions"],
    [{ subscriptions: ["message_created"] }, "Url can't be blank", "url"],
  ];
  for (const [body, message, attribute] of cases) {
    const response = await h.request("POST", path(account), { token: account.admin.token, body });
    t.is(response.status, 422, JSON.stringify(body));
    t.deepEqual(response.body, { message, attributes: [attribute] });
  }
  await h.request("POST", path(account), { token: account.admin.token, body: { url: "https://example.com/dup" } });
  const duplicate = await h.request("POST", path(account), { token: account.admin.token, body: { url: "https://example.com/dup" } });
  t.deepEqual(duplicate.body, { message: "Url has already been taken", attributes: ["url"] });
  const after = await h.knex("webhooks").where("account_id", account.id).count("* as n").first();
  t.is(Number(after!.n), Number(before!.n) + 1);
});

test("webhooks are for administrators of the account only", async (t) => {
  const account = await createAccount(h);
  const denied = await h.request("GET", path(account), { token: account.agent.token });
  t.is(denied.status, 401);
  t.deepEqual(denied.body, { error: "You are not authorized to do this action" });
  // The role is checked before the body, as Pundit's before_action is: an agent learns nothing from validation.
  const deniedInvalid = await h.request("POST", path(account), { token: account.agent.token, body: { url: 42, subscriptions: ["nope"] } });
  t.deepEqual([deniedInvalid.status, deniedInvalid.body], [401, { error: "You are not authorized to do this action" }]);
  const other = await createAccount(h, "Other");
  const created = await h.request("POST", path(account), { token: account.admin.token, body: { url: "https://example.com/mine" } });
  const id = created.body.payload.webhook.id;
  t.is((await h.request("GET", path(account), { token: other.admin.token })).status, 401);
  t.is((await accountApi(h, other).patch(`/webhooks/${id}`, { name: "x" })).status, 404);
  t.is((await accountApi(h, other).get(`/webhooks/${id}/deliveries`)).status, 404);
});
