import ChatwootClient from "@figuro/chatwoot-sdk";
import test from "ava";
import { createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const HOOK_KEYS = ["account_id", "app_id", "hook_type", "id", "inbox", "settings", "status"];
const APP_KEYS = ["action", "allow_multiple_hooks", "button", "description", "enabled", "hook_type", "hooks", "i18n_key", "id", "logo", "name"];

test("apps: the webhook app and dashboard_apps in Chatwoot's shape; enabled follows the account's webhooks and hooks", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);

  const listed = await api.get("/integrations/apps");
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.payload.map((app: { id: string }) => app.id),
    ["webhook", "dashboard_apps"],
  );
  const [webhookApp, dashboardApps] = listed.body.payload;
  t.deepEqual(Object.keys(webhookApp).sort(), APP_KEYS);
  t.like(webhookApp, { id: "webhook", name: "Webhooks", hook_type: "account", allow_multiple_hooks: true, enabled: false, action: "/webhook", hooks: [] });
  t.like(dashboardApps, { id: "dashboard_apps", hook_type: "account", allow_multiple_hooks: true, enabled: false, hooks: [] });

  await expectOk(api.post("/webhooks", { url: "https://hooks.example.com/events" }), "webhook");
  const hook = await expectOk(api.post("/integrations/hooks", { app_id: "dashboard_apps", settings: { url: "https://crm.example.com" } }), "hook");
  const shown = await api.get("/integrations/apps/dashboard_apps");
  t.is(shown.status, 200);
  t.like(shown.body, { id: "dashboard_apps", enabled: true });
  t.deepEqual(shown.body.hooks, [hook]);
  t.true((await api.get("/integrations/apps/webhook")).body.enabled);

  t.deepEqual(await api.get("/integrations/apps/slack").then((r) => [r.status, r.body]), [404, { error: "Resource could not be found" }]);
});

test("hooks: create, update (PATCH and PUT) and delete in Chatwoot's shapes, wrapped under hook or bare", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);

  const created = await api.post("/integrations/hooks", { hook: { app_id: "webhook", settings: { note: "main" } } });
  t.is(created.status, 200);
  t.deepEqual(Object.keys(created.body).sort(), HOOK_KEYS);
  t.like(created.body, { app_id: "webhook", status: true, inbox: null, account_id: account.id, hook_type: "account", settings: { note: "main" } });

  const disabled = await api.patch(`/integrations/hooks/${created.body.id}`, { status: "disabled" });
  t.is(disabled.status, 200);
  t.like(disabled.body, { id: created.body.id, status: false, settings: { note: "main" } });
  const replaced = await api.put(`/integrations/hooks/${created.body.id}`, { hook: { settings: { note: "other" }, status: "enabled" } });
  t.is(replaced.status, 200);
  t.like(replaced.body, { status: true, settings: { note: "other" } });
  // app_id and inbox are fixed once created (attr_readonly): only status and settings change.
  t.like((await api.patch(`/integrations/hooks/${created.body.id}`, { app_id: "dashboard_apps" })).body, { app_id: "webhook" });

  const deleted = await api.delete(`/integrations/hooks/${created.body.id}`);
  t.is(deleted.status, 200);
  t.is(deleted.body, undefined);
  t.is((await api.delete(`/integrations/hooks/${created.body.id}`)).status, 404);
  t.is((await api.patch(`/integrations/hooks/${created.body.id}`, { status: "enabled" })).status, 404);
  t.is(await h.knex("integrations_hooks").where({ id: created.body.id }).first(), undefined);
});

test("hooks: an inbox of the account is shown as {id, name}; bad app ids, inboxes and statuses are Chatwoot's 422", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await createInbox(h, account, { name: "Support" });
  const foreignInbox = await createInbox(h, other, { name: "Elsewhere" });

  const withInbox = await api.post("/integrations/hooks", { app_id: "dashboard_apps", inbox_id: inbox.id });
  t.is(withInbox.status, 200);
  t.deepEqual(withInbox.body.inbox, { id: inbox.id, name: "Support" });
  t.deepEqual(withInbox.body.settings, {});

  t.deepEqual(await api.post("/integrations/hooks", { settings: {} }).then((r) => [r.status, r.body]), [
    422,
    { message: "App can't be blank", attributes: ["app_id"] },
  ]);
  t.deepEqual(await api.post("/integrations/hooks", { app_id: "slack" }).then((r) => [r.status, r.body]), [
    422,
    { message: "App is not an app this service supports", attributes: ["app_id"] },
  ]);
  t.deepEqual(await api.post("/integrations/hooks", { app_id: "webhook", inbox_id: foreignInbox.id }).then((r) => [r.status, r.body]), [
    422,
    { message: "Inbox must exist", attributes: ["inbox"] },
  ]);
  t.is((await api.post("/integrations/hooks", { app_id: "webhook", status: "sometimes" })).status, 422);
  t.is((await api.post("/integrations/hooks", { app_id: "webhook", settings: "not an object" })).status, 422);
});

test("hooks and apps are for administrators, scoped to their account", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const hook = await expectOk(accountApi(h, account).post("/integrations/hooks", { app_id: "webhook" }), "hook");
  const asAgent = accountApi(h, account, account.agent.token);

  for (const response of [
    await asAgent.get("/integrations/apps"),
    await asAgent.get("/integrations/apps/webhook"),
    await asAgent.post("/integrations/hooks", { app_id: "webhook" }),
    await asAgent.patch(`/integrations/hooks/${hook.id}`, { status: "disabled" }),
    await asAgent.delete(`/integrations/hooks/${hook.id}`),
  ]) {
    t.deepEqual([response.status, response.body], [401, { error: "You are not authorized to do this action" }]);
  }
  // Another account's administrator does not see or reach it.
  const otherApi = accountApi(h, other);
  t.deepEqual((await otherApi.get("/integrations/apps/webhook")).body.hooks, []);
  t.is((await otherApi.patch(`/integrations/hooks/${hook.id}`, { status: "disabled" })).status, 404);
  t.is((await otherApi.delete(`/integrations/hooks/${hook.id}`)).status, 404);
  t.like(await h.knex("integrations_hooks").where({ id: hook.id }).first(), { status: 1 });
});

test("the SDK's four integration methods and the n8n node's four operations (every field sent, blank when unset) work unchanged", async (t) => {
  const account = await createAccount(h);
  const sdk = new ChatwootClient({ config: { basePath: h.baseUrl, with_credentials: false, credentials: "omit", token: account.admin.token } });
  const accountId = account.id;

  const apps: any = await sdk.integrations.list({ accountId });
  t.deepEqual(
    apps.payload.map((app: { id: string }) => app.id),
    ["webhook", "dashboard_apps"],
  );
  const created: any = await sdk.integrations.create({ accountId, data: { app_id: "dashboard_apps", settings: { title: "CRM" } } });
  t.like(created, { app_id: "dashboard_apps", status: true, settings: { title: "CRM" } });
  const updated: any = await sdk.integrations.update({ accountId, hookId: created.id, data: { settings: { title: "CRM 2" } } });
  t.like(updated, { id: created.id, settings: { title: "CRM 2" } });
  await sdk.integrations.delete({ accountId, hookId: created.id });
  t.is(await h.knex("integrations_hooks").where({ id: created.id }).first(), undefined);

  // n8n's routing sends every displayed field: strings blank, objects as parsed "{}".
  const api = accountApi(h, account);
  t.is((await api.get("/integrations/apps")).status, 200);
  const n8nCreated = await api.post("/integrations/hooks", { app_id: "webhook", inbox_id: "", settings: {} });
  t.is(n8nCreated.status, 200);
  t.like(n8nCreated.body, { app_id: "webhook", inbox: null, settings: {} });
  t.is((await api.patch(`/integrations/hooks/${n8nCreated.body.id}`, { settings: {} })).status, 200);
  t.is((await api.delete(`/integrations/hooks/${n8nCreated.body.id}`)).status, 200);
});

test("50 parallel status changes of one hook all answer 200 and leave one consistent row", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const hook = await expectOk(api.post("/integrations/hooks", { app_id: "webhook" }), "hook");
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => api.patch(`/integrations/hooks/${hook.id}`, { status: i % 2 ? "enabled" : "disabled", settings: { n: i } })),
  );
  t.true(responses.every((response) => response.status === 200));
  const row = await h.knex("integrations_hooks").where({ id: hook.id }).first();
  // The last write wins whole: its status and settings together.
  t.is(row.status, row.settings.n % 2 ? 1 : 0);
});
