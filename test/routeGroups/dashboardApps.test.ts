import test from "ava";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const frames = [{ type: "frame", url: "https://crm.example.com/contact" }];

test("dashboard apps: create, list, show, update and delete (204) in Chatwoot's shape", async (t) => {
  const account = await createAccount(h);
  const agent = accountApi(h, account, account.agent.token);
  const created = await agent.post("/dashboard_apps", { dashboard_app: { title: "CRM", content: frames } });
  t.is(created.status, 200);
  const row = await h.knex("dashboard_apps").where({ id: created.body.id }).first();
  t.deepEqual(created.body, { id: Number(row.id), title: "CRM", content: frames, created_at: row.created_at.toISOString() });
  t.is(Number(row.user_id), account.agent.id);

  const second = await expectOk(
    agent.post("/dashboard_apps", { title: "Orders", content: [{ type: "frame", url: "http://orders.example.com" }] }),
    "bare body",
  );
  t.deepEqual(
    (await expectOk(agent.get("/dashboard_apps"), "index")).map((a: { id: number }) => a.id),
    [created.body.id, second.id],
  );
  t.deepEqual(await expectOk(agent.get(`/dashboard_apps/${second.id}`), "show"), second);

  const renamed = await agent.patch(`/dashboard_apps/${created.body.id}`, { dashboard_app: { title: "CRM 2" } });
  t.like(renamed.body, { title: "CRM 2", content: frames });
  const deleted = await agent.delete(`/dashboard_apps/${created.body.id}`);
  t.deepEqual([deleted.status, deleted.body], [204, undefined]);
  t.is((await agent.get(`/dashboard_apps/${created.body.id}`)).status, 404);
  t.is((await agent.delete(`/dashboard_apps/${created.body.id}`)).status, 404);
});

test("content must be frames with http(s) URLs and the title present: 422 as Rails says it", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  for (const content of [[], [{ type: "link", url: "https://x.example" }], [{ type: "frame", url: "javascript:alert(1)" }], [{ type: "frame" }], "x", null]) {
    const refused = await api.post("/dashboard_apps", { title: "Bad", content });
    t.is(refused.status, 422, JSON.stringify(content));
    if (refused.status === 422) t.deepEqual(refused.body, { message: "Content : Invalid data", attributes: ["content"] });
  }
  const untitled = await api.post("/dashboard_apps", { content: frames });
  t.deepEqual([untitled.status, untitled.body], [422, { message: "Title can't be blank", attributes: ["title"] }]);
  const app = await expectOk(api.post("/dashboard_apps", { title: "Good", content: frames }), "good");
  t.is((await api.patch(`/dashboard_apps/${app.id}`, { content: [] })).status, 422);
  t.deepEqual((await h.knex("dashboard_apps").where({ id: app.id }).first()).content, frames);
});

test("another account's dashboard app is 404 and its list is its own", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const app = await expectOk(accountApi(h, account).post("/dashboard_apps", { title: "Mine", content: frames }), "create");
  const otherApi = accountApi(h, other);
  t.is((await otherApi.get(`/dashboard_apps/${app.id}`)).status, 404);
  t.is((await otherApi.patch(`/dashboard_apps/${app.id}`, { title: "Hijack" })).status, 404);
  t.is((await otherApi.delete(`/dashboard_apps/${app.id}`)).status, 404);
  t.deepEqual(await expectOk(otherApi.get("/dashboard_apps"), "other list"), []);
  t.is((await h.request("GET", `/api/v1/accounts/${account.id}/dashboard_apps`, { token: other.admin.token })).status, 401);
});
