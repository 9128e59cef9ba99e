import type { AddressInfo } from "node:net";
import test from "ava";
import { createApp } from "../../src/app";
import { closeServer } from "../../src/runtime";
import { createAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

const SIGN_IN = { errors: ["You need to sign in or sign up before continuing."] };

test("without a token the account API answers devise's 401 body", async (t) => {
  const account = await createAccount(h);
  for (const url of [`/api/v1/accounts/${account.id}`, `/api/v1/accounts/${account.id}/agent_bots`]) {
    const response = await h.request("GET", url);
    t.is(response.status, 401, url);
    t.deepEqual(response.body, SIGN_IN);
  }
});

test("an unknown token is 401 Invalid Access Token", async (t) => {
  const account = await createAccount(h);
  for (const url of [`/api/v1/accounts/${account.id}`, `/api/v1/accounts/${account.id}/agent_bots`]) {
    const response = await h.request("GET", url, { token: "not-a-real-token" });
    t.is(response.status, 401);
    t.deepEqual(response.body, { error: "Invalid Access Token" });
  }
});

test("the token is accepted as api_access_token and as Api-Access-Token", async (t) => {
  const account = await createAccount(h);
  const underscored = await h.request("GET", `/api/v1/accounts/${account.id}`, { headers: { api_access_token: account.admin.token } });
  const dashed = await h.request("GET", `/api/v1/accounts/${account.id}/agent_bots`, { headers: { "Api-Access-Token": account.admin.token } });
  t.is(underscored.status, 200);
  t.is(underscored.body.id, account.id);
  t.is(dashed.status, 200);
});

test("bot and platform app tokens are refused on account endpoints not open to bots", async (t) => {
  const account = await createAccount(h);
  const bot = await accountApi(h, account).post("/agent_bots", { name: "B" });
  for (const token of [bot.body.access_token, h.platformToken]) {
    for (const url of [`/api/v1/accounts/${account.id}`, `/api/v1/accounts/${account.id}/agent_bots`]) {
      const response = await h.request("GET", url, { token });
      t.is(response.status, 401, url);
      t.deepEqual(response.body, { error: "Access to this endpoint is not authorized for bots" });
    }
  }
});

test("a user outside the account is 401 You are not authorized to access this account", async (t) => {
  const a = await createAccount(h);
  const b = await createAccount(h);
  const response = await accountApi(h, a, b.admin.token).get("/agent_bots");
  t.is(response.status, 401);
  t.deepEqual(response.body, { error: "You are not authorized to access this account" });
});

test("an agent doing an administrator's action is 401 You are not authorized to do this action", async (t) => {
  const account = await createAccount(h);
  for (const [method, url] of [
    ["PATCH", `/api/v1/accounts/${account.id}`],
    ["POST", `/api/v1/accounts/${account.id}/agent_bots`],
  ]) {
    const response = await h.request(method!, url!, { token: account.agent.token, body: { name: "x" } });
    t.is(response.status, 401);
    t.deepEqual(response.body, { error: "You are not authorized to do this action" });
  }
});

test("a suspended account is 401 Account is suspended on its resources", async (t) => {
  const account = await createAccount(h);
  await h.request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { status: "suspended" } });
  const response = await accountApi(h, account).get("/agent_bots");
  t.is(response.status, 401);
  t.deepEqual(response.body, { error: "Account is suspended" });
});

test("unknown and non-numeric ids are 404 Resource could not be found", async (t) => {
  const account = await createAccount(h);
  const urls = [
    "/api/v1/accounts/999999999/agent_bots",
    "/api/v1/accounts/abc/agent_bots",
    `/api/v1/accounts/${account.id}/agent_bots/999999999`,
    `/api/v1/accounts/${account.id}/agent_bots/abc`,
    `/api/v1/accounts/${account.id}/agent_bots/12abc`,
    "/api/v1/accounts/99999999999999999999999",
  ];
  for (const url of urls) {
    const response = await h.request("GET", url, { token: account.admin.token });
    t.is(response.status, 404, url);
    t.deepEqual(response.body, { error: "Resource could not be found" }, url);
  }
});

test("malformed JSON is 400 with a clear message and writes nothing", async (t) => {
  const account = await createAccount(h, "Unchanged");
  for (const [method, url] of [
    ["PATCH", `/api/v1/accounts/${account.id}`],
    ["POST", `/api/v1/accounts/${account.id}/agent_bots`],
    ["POST", "/platform/api/v1/accounts"],
  ] as const) {
    const token = url.startsWith("/platform") ? h.platformToken : account.admin.token;
    const response = await h.request(method, url, { token, rawBody: '{"name": "Broken",' });
    t.is(response.status, 400, url);
    t.regex(response.body.error, /^Malformed request body: /);
  }
  t.is((await h.knex("accounts").where({ id: account.id }).first()).name, "Unchanged");
  t.deepEqual(await h.knex("agent_bots").where({ account_id: account.id }), []);
  t.deepEqual(await h.knex("accounts").where({ name: "Broken" }), []);
});

test("a body over the configured limit is 413 and writes nothing", async (t) => {
  const account = await createAccount(h, "Small");
  const server = createApp(h.deps, { bodyLimit: "1kb" }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (body: unknown) =>
      fetch(`${base}/api/v1/accounts/${account.id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", api_access_token: account.admin.token },
        body: JSON.stringify(body),
      });
    const big = await send({ name: "Big", auto_resolve_message: "x".repeat(2048) });
    t.is(big.status, 413);
    t.deepEqual(await big.json(), { error: "Request body is too large" });
    t.is((await h.knex("accounts").where({ id: account.id }).first()).name, "Small");

    const small = await send({ name: "Fits" });
    t.is(small.status, 200);
  } finally {
    await closeServer(server);
  }
});

test("wrong types are 422 with Chatwoot's message, and nothing is written", async (t) => {
  const account = await createAccount(h, "Typed");
  const response = await h.request("PATCH", `/api/v1/accounts/${account.id}`, {
    token: account.admin.token,
    body: { name: "Partially", auto_resolve_after: "60" },
  });
  t.is(response.status, 422);
  t.deepEqual(response.body, { message: "Auto resolve after must be of type integer", attributes: ["auto_resolve_after"] });
  const row = await h.knex("accounts").where({ id: account.id }).first();
  t.is(row.name, "Typed");
  t.deepEqual(row.settings, {});
});

test("JSON that is not an object is a 4xx, never a 500, and writes nothing", async (t) => {
  const account = await createAccount(h, "Shapeless");
  for (const rawBody of ["[1, 2]", '"just a string"', "null", "42"]) {
    const response = await h.request("PATCH", `/api/v1/accounts/${account.id}`, { token: account.admin.token, rawBody });
    t.true(response.status >= 400 && response.status < 500, `${rawBody}: ${response.status} ${JSON.stringify(response.body)}`);
    t.truthy(response.body.error ?? response.body.message, rawBody);
  }
  t.is((await h.knex("accounts").where({ id: account.id }).first()).name, "Shapeless");
});
