import { randomUUID } from "node:crypto";
import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/agent_bots`;
const TOKEN = /^[1-9A-HJ-NP-Za-km-z]{24}$/;

async function createBot(account: TestAccount, body: Record<string, unknown> = {}) {
  const response = await h.request("POST", path(account), {
    token: account.admin.token,
    body: { name: "Bot", outgoing_url: "https://bot.example.com/in", ...body },
  });
  if (response.status !== 200) throw new Error(`create bot: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function systemBot() {
  const response = await h.request("POST", "/platform/api/v1/agent_bots", {
    token: h.platformToken,
    body: { name: `System ${randomUUID()}`, outgoing_url: "https://system.example.com/hook" },
  });
  return response.body;
}

test("create (A1) answers Chatwoot's fields, with token and secret for the administrator, and is audited", async (t) => {
  const account = await createAccount(h);
  const response = await h.request("POST", path(account), {
    token: account.admin.token,
    body: { name: "Greeter", description: "Says hi", outgoing_url: "https://bot.example.com/in", bot_type: 0, bot_config: { lang: "en" } },
  });
  t.is(response.status, 200);
  const { id, access_token, secret, ...rest } = response.body;
  t.is(typeof id, "number");
  t.regex(access_token, TOKEN);
  t.regex(secret, TOKEN);
  t.deepEqual(rest, {
    name: "Greeter",
    description: "Says hi",
    thumbnail: "",
    outgoing_url: "https://bot.example.com/in",
    bot_type: "webhook",
    bot_config: { lang: "en" },
    account_id: account.id,
    system_bot: false,
  });
  t.like(await h.knex("access_tokens").where({ token: access_token }).first(), { owner_type: "AgentBot", owner_id: id });

  const audits = await h.knex("audit_logs").where({ auditable_type: "AgentBot", auditable_id: id });
  t.is(audits.length, 1);
  t.like(audits[0], { action: "create", account_id: account.id, user_id: account.admin.id, version: 1 });
  t.deepEqual(audits[0].audited_changes, {
    name: "Greeter",
    description: "Says hi",
    outgoing_url: "https://bot.example.com/in",
    avatar_url: null,
    bot_type: 0,
    bot_config: { lang: "en" },
    account_id: account.id,
  });
});

test("bot_type takes Chatwoot's code or name; anything else is 422", async (t) => {
  const account = await createAccount(h);
  t.is((await createBot(account, { bot_type: "webhook" })).bot_type, "webhook");
  const refused = await h.request("POST", path(account), { token: account.admin.token, body: { name: "X", bot_type: 1 } });
  t.is(refused.status, 422);
  t.deepEqual(refused.body, { message: "Bot type is not included in the list", attributes: ["bot_type"] });
});

test("list shows the account's bots and the system bots; system bots carry no token, url or secret", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account);
  const system = await systemBot();
  const other = await createAccount(h);
  const foreign = await createBot(other);

  const listed = await h.request("GET", path(account), { token: account.admin.token });
  t.is(listed.status, 200);
  const ids = listed.body.map((bot: { id: number }) => bot.id);
  t.true(ids.includes(own.id));
  t.true(ids.includes(system.id));
  t.false(ids.includes(foreign.id));
  t.deepEqual(
    listed.body.find((bot: { id: number }) => bot.id === own.id),
    own,
  );
  t.deepEqual(
    listed.body.find((bot: { id: number }) => bot.id === system.id),
    {
      id: system.id,
      name: system.name,
      description: null,
      thumbnail: "",
      bot_type: "webhook",
      bot_config: {},
      account_id: null,
      system_bot: true,
    },
  );
});

test("agents may list and show bots but never see the secret or the access token (a deviation: Chatwoot shows agents the token)", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account);
  // The bot's token reads and posts in every inbox the bot serves, including those the agent is not a member of.
  const { secret, access_token, ...withoutSecret } = own;
  t.truthy(secret);
  t.truthy(access_token);
  const listed = await h.request("GET", path(account), { token: account.agent.token });
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.find((bot: { id: number }) => bot.id === own.id),
    withoutSecret,
  );
  const shown = await h.request("GET", `${path(account)}/${own.id}`, { token: account.agent.token });
  t.is(shown.status, 200);
  t.deepEqual(shown.body, withoutSecret);
});

test("show answers own and system bots; another account's bot is 404", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account);
  const system = await systemBot();
  const foreign = await createBot(await createAccount(h));
  t.deepEqual((await h.request("GET", `${path(account)}/${own.id}`, { token: account.admin.token })).body, own);
  const shownSystem = await h.request("GET", `${path(account)}/${system.id}`, { token: account.admin.token });
  t.is(shownSystem.status, 200);
  t.is(shownSystem.body.system_bot, true);
  t.false("access_token" in shownSystem.body);
  t.false("outgoing_url" in shownSystem.body);
  t.false("secret" in shownSystem.body);
  for (const id of [foreign.id, 999999999, "abc"]) {
    const response = await h.request("GET", `${path(account)}/${id}`, { token: account.admin.token });
    t.is(response.status, 404, String(id));
    t.deepEqual(response.body, { error: "Resource could not be found" });
  }
});

test("update changes the bot and audits only what changed; system and foreign bots are 404", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account, { name: "Old" });
  const updated = await h.request("PATCH", `${path(account)}/${own.id}`, {
    token: account.admin.token,
    body: { name: "New", bot_config: { a: 1 }, outgoing_url: "https://bot.example.com/v2" },
  });
  t.is(updated.status, 200);
  t.deepEqual(updated.body, { ...own, name: "New", bot_config: { a: 1 }, outgoing_url: "https://bot.example.com/v2" });

  const audits = await h.knex("audit_logs").where({ auditable_type: "AgentBot", auditable_id: own.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => a.action),
    ["create", "update"],
  );
  t.deepEqual(audits[1].audited_changes, {
    name: ["Old", "New"],
    bot_config: [{}, { a: 1 }],
    outgoing_url: ["https://bot.example.com/in", "https://bot.example.com/v2"],
  });

  const system = await systemBot();
  const foreign = await createBot(await createAccount(h));
  for (const id of [system.id, foreign.id]) {
    const response = await h.request("PATCH", `${path(account)}/${id}`, { token: account.admin.token, body: { name: "Hijacked" } });
    t.is(response.status, 404);
  }
  t.is((await h.knex("agent_bots").where({ id: system.id }).first()).name, system.name);
  t.is((await h.knex("agent_bots").where({ id: foreign.id }).first()).name, "Bot");
});

test("wrong types are 422 and write nothing", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account, { name: "Stable" });
  const cases: [unknown, string, string][] = [
    [{ name: 7 }, "Name must be of type string", "name"],
    [{ outgoing_url: "javascript:alert(1)" }, "Outgoing url is invalid", "outgoing_url"],
    [{ bot_config: "nope" }, "Bot config must be of type record", "bot_config"],
    [{ bot_type: "carrier_pigeon" }, "Bot type is not included in the list", "bot_type"],
  ];
  for (const [body, message, attribute] of cases) {
    for (const [method, url] of [
      ["POST", path(account)],
      ["PATCH", `${path(account)}/${own.id}`],
    ] as const) {
      const response = await h.request(method, url, { token: account.admin.token, body: { description: "probe", ...(body as object) } });
      t.is(response.status, 422, `${method} ${JSON.stringify(body)}`);
      t.deepEqual(response.body, { message, attributes: [attribute] });
    }
  }
  const rows = await h.knex("agent_bots").where({ account_id: account.id });
  t.is(rows.length, 1);
  t.like(rows[0], { name: "Stable", description: null });
});

test("delete removes the bot and its token, audited", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account);
  const deleted = await h.request("DELETE", `${path(account)}/${own.id}`, { token: account.admin.token });
  t.is(deleted.status, 200);
  t.is((await h.request("GET", `${path(account)}/${own.id}`, { token: account.admin.token })).status, 404);
  t.is((await h.request("DELETE", `${path(account)}/${own.id}`, { token: account.admin.token })).status, 404);
  t.deepEqual(await h.knex("access_tokens").where({ owner_type: "AgentBot", owner_id: own.id }), []);
  const audits = await h.knex("audit_logs").where({ auditable_type: "AgentBot", auditable_id: own.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => a.action),
    ["create", "destroy"],
  );
  t.is(audits[1].audited_changes.name, "Bot");

  const system = await systemBot();
  t.is((await h.request("DELETE", `${path(account)}/${system.id}`, { token: account.admin.token })).status, 404);
  t.truthy(await h.knex("agent_bots").where({ id: system.id }).first());
});

test("reset_access_token issues a new token and the old one stops working", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account);
  const probe = (token: string) => h.request("GET", `/api/v1/accounts/${account.id}`, { token });
  // A live bot token reaches authentication and is refused for the endpoint; a dead one is unknown.
  t.deepEqual((await probe(own.access_token)).body, { error: "Access to this endpoint is not authorized for bots" });

  const reset = await h.request("POST", `${path(account)}/${own.id}/reset_access_token`, { token: account.admin.token });
  t.is(reset.status, 200);
  t.regex(reset.body.access_token, TOKEN);
  t.not(reset.body.access_token, own.access_token);
  t.deepEqual(reset.body, { ...own, access_token: reset.body.access_token });
  t.deepEqual((await probe(own.access_token)).body, { error: "Invalid Access Token" });
  t.deepEqual((await probe(reset.body.access_token)).body, { error: "Access to this endpoint is not authorized for bots" });
});

test("reset_secret issues a new secret, which is not audited", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account);
  const reset = await h.request("POST", `${path(account)}/${own.id}/reset_secret`, { token: account.admin.token });
  t.is(reset.status, 200);
  t.regex(reset.body.secret, TOKEN);
  t.not(reset.body.secret, own.secret);
  t.deepEqual(reset.body, { ...own, secret: reset.body.secret });
  t.is((await h.knex("agent_bots").where({ id: own.id }).first()).secret, reset.body.secret);
  t.deepEqual(
    (await h.knex("audit_logs").where({ auditable_type: "AgentBot", auditable_id: own.id })).map((a) => a.action),
    ["create"],
  );
});

test("agents may not create, update, delete or reset: 401 and nothing changes", async (t) => {
  const account = await createAccount(h);
  const own = await createBot(account, { name: "Untouched" });
  const attempts: [string, string, unknown?][] = [
    ["POST", path(account), { name: "Agent bot" }],
    ["PATCH", `${path(account)}/${own.id}`, { name: "Agent edit" }],
    ["DELETE", `${path(account)}/${own.id}`],
    ["POST", `${path(account)}/${own.id}/reset_access_token`],
    ["POST", `${path(account)}/${own.id}/reset_secret`],
  ];
  for (const [method, url, body] of attempts) {
    const response = await h.request(method, url, { token: account.agent.token, body });
    t.is(response.status, 401, `${method} ${url}`);
    t.deepEqual(response.body, { error: "You are not authorized to do this action" });
  }
  const rows = await h.knex("agent_bots").where({ account_id: account.id });
  t.deepEqual(
    rows.map((r) => [r.name, r.secret]),
    [["Untouched", own.secret]],
  );
  t.is((await h.knex("access_tokens").where({ owner_type: "AgentBot", owner_id: own.id }).first()).token, own.access_token);
});

test("a token from account B gets nothing from account A", async (t) => {
  const a = await createAccount(h, "A");
  const b = await createAccount(h, "B");
  const bot = await createBot(a, { name: "A's bot" });
  const attempts: [string, string, unknown?][] = [
    ["GET", path(a)],
    ["GET", `${path(a)}/${bot.id}`],
    ["POST", path(a), { name: "Planted" }],
    ["PATCH", `${path(a)}/${bot.id}`, { name: "Hijacked" }],
    ["DELETE", `${path(a)}/${bot.id}`],
    ["POST", `${path(a)}/${bot.id}/reset_access_token`],
    ["POST", `${path(a)}/${bot.id}/reset_secret`],
  ];
  for (const token of [b.admin.token, b.agent.token]) {
    for (const [method, url, body] of attempts) {
      const response = await h.request(method, url, { token, body });
      t.is(response.status, 401, `${method} ${url}`);
      t.deepEqual(response.body, { error: "You are not authorized to access this account" });
    }
  }
  // B's own path with A's bot id: not found in B.
  for (const method of ["GET", "PATCH", "DELETE"]) {
    const response = await h.request(method, `${path(b)}/${bot.id}`, { token: b.admin.token, body: method === "PATCH" ? { name: "x" } : undefined });
    t.is(response.status, 404, method);
  }
  t.is((await h.request("POST", `${path(b)}/${bot.id}/reset_secret`, { token: b.admin.token })).status, 404);
  const rows = await h.knex("agent_bots").where({ account_id: a.id });
  t.deepEqual(
    rows.map((r) => [r.id, r.name, r.secret]),
    [[bot.id, "A's bot", bot.secret]],
  );
  t.deepEqual(
    (await h.request("GET", path(b), { token: b.admin.token })).body.filter((x: { account_id: number | null }) => x.account_id !== null),
    [],
  );
});
