import { randomUUID } from "node:crypto";
import test from "ava";
import { PlatformApp } from "../../src/models/PlatformApp";
import { createAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

test("the platform API takes only platform app tokens: anything else is 401 Invalid access_token", async (t) => {
  const account = await createAccount(h);
  const { body: bot } = await accountApi(h, account).post("/agent_bots", { name: "B" });
  for (const token of [undefined, "nonsense", account.admin.token, bot.access_token]) {
    const response = await h.request("GET", `/platform/api/v1/accounts/${account.id}`, { token });
    t.is(response.status, 401, String(token));
    t.deepEqual(response.body, { error: "Invalid access_token" });
  }
  const dashed = await h.request("GET", `/platform/api/v1/accounts/${account.id}`, { headers: { "Api-Access-Token": h.platformToken } });
  t.is(dashed.status, 200);
});

test("another app's accounts, users, account users and bots answer 401 Non permissible resource and stay unchanged", async (t) => {
  const account = await createAccount(h);
  const { body: bot } = await h.request("POST", "/platform/api/v1/agent_bots", { token: h.platformToken, body: { name: "Owned" } });
  const other = await PlatformApp.createWithToken(`intruder-${randomUUID()}`);
  const attempts: [string, string, unknown?][] = [
    ["GET", `/platform/api/v1/accounts/${account.id}`],
    ["PATCH", `/platform/api/v1/accounts/${account.id}`, { name: "Hijacked" }],
    ["DELETE", `/platform/api/v1/accounts/${account.id}`],
    ["GET", `/platform/api/v1/accounts/${account.id}/account_users`],
    ["POST", `/platform/api/v1/accounts/${account.id}/account_users`, { user_id: account.agent.id, role: "administrator" }],
    ["DELETE", `/platform/api/v1/accounts/${account.id}/account_users`, { user_id: account.admin.id }],
    ["GET", `/platform/api/v1/users/${account.admin.id}`],
    ["PATCH", `/platform/api/v1/users/${account.admin.id}`, { name: "Hijacked" }],
    ["DELETE", `/platform/api/v1/users/${account.admin.id}`],
    ["GET", `/platform/api/v1/agent_bots/${bot.id}`],
    ["PATCH", `/platform/api/v1/agent_bots/${bot.id}`, { name: "Hijacked" }],
    ["DELETE", `/platform/api/v1/agent_bots/${bot.id}`],
  ];
  for (const [method, path, body] of attempts) {
    const response = await h.request(method, path, { token: other.token, body });
    t.is(response.status, 401, `${method} ${path}`);
    t.deepEqual(response.body, { error: "Non permissible resource" });
  }
  const row = await h.knex("accounts").where({ id: account.id }).first();
  t.is(row.name, "Test Account");
  t.is(row.deletion_requested_at, null);
  t.is((await h.knex("users").where({ id: account.admin.id }).first()).name, "Admin Person");
  t.deepEqual(
    (await h.knex("account_users").where({ account_id: account.id }).orderBy("id")).map((au) => [au.user_id, au.role]),
    [
      [account.admin.id, "administrator"],
      [account.agent.id, "agent"],
    ],
  );
  t.is((await h.knex("agent_bots").where({ id: bot.id }).first()).name, "Owned");
  t.deepEqual((await h.request("GET", "/platform/api/v1/agent_bots", { token: other.token })).body, []);
});
