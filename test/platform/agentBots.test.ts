import { randomUUID } from "node:crypto";
import test from "ava";
import { PlatformApp } from "../../src/models/PlatformApp";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const bots = "/platform/api/v1/agent_bots";

test("create (P1) answers the bot with its token, whose owner is the new bot", async (t) => {
  const created = await h.request("POST", bots, {
    token: h.platformToken,
    body: { name: "Helper", description: "Answers FAQs", outgoing_url: "https://bots.example.com/hook", avatar_url: "https://cdn.example.com/a.png" },
  });
  t.is(created.status, 200);
  const { id, access_token, ...rest } = created.body;
  t.is(typeof id, "number");
  t.regex(access_token, /^[1-9A-HJ-NP-Za-km-z]{24}$/);
  t.deepEqual(rest, {
    name: "Helper",
    description: "Answers FAQs",
    thumbnail: "https://cdn.example.com/a.png",
    outgoing_url: "https://bots.example.com/hook",
    bot_type: "webhook",
    bot_config: {},
    account_id: null,
    system_bot: true,
  });
  t.false("secret" in created.body);
  t.like(await h.knex("access_tokens").where({ token: access_token }).first(), { owner_type: "AgentBot", owner_id: id });

  const shown = await h.request("GET", `${bots}/${id}`, { token: h.platformToken });
  t.is(shown.status, 200);
  t.deepEqual(shown.body, created.body);
});

test("a bot tied to one of the app's accounts is audited in that account on create, update and delete", async (t) => {
  const account = await createAccount(h);
  const created = await h.request("POST", bots, {
    token: h.platformToken,
    body: { name: "Acct bot", account_id: account.id, outgoing_url: "https://b.example.com/1" },
  });
  t.is(created.status, 200);
  t.is(created.body.account_id, account.id);
  t.false(created.body.system_bot);

  const updated = await h.request("PATCH", `${bots}/${created.body.id}`, { token: h.platformToken, body: { name: "Renamed", description: null } });
  t.is(updated.status, 200);
  t.deepEqual(updated.body, { ...created.body, name: "Renamed" });

  t.is((await h.request("DELETE", `${bots}/${created.body.id}`, { token: h.platformToken })).status, 200);
  t.is((await h.request("GET", `${bots}/${created.body.id}`, { token: h.platformToken })).status, 404);
  t.deepEqual(await h.knex("access_tokens").where({ owner_type: "AgentBot", owner_id: created.body.id }), []);

  const audits = await h.knex("audit_logs").where({ auditable_type: "AgentBot", auditable_id: created.body.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => [a.action, a.account_id]),
    [
      ["create", account.id],
      ["update", account.id],
      ["destroy", account.id],
    ],
  );
  t.deepEqual(audits[0].audited_changes, {
    name: "Acct bot",
    description: null,
    outgoing_url: "https://b.example.com/1",
    avatar_url: null,
    bot_type: 0,
    bot_config: {},
    account_id: account.id,
  });
  t.deepEqual(audits[1].audited_changes, { name: ["Acct bot", "Renamed"] });
  t.is(audits[2].audited_changes.name, "Renamed");
  t.false("secret" in audits[0].audited_changes);
});

test("system bots leave no audit rows", async (t) => {
  const created = await h.request("POST", bots, { token: h.platformToken, body: { name: "Global" } });
  await h.request("PATCH", `${bots}/${created.body.id}`, { token: h.platformToken, body: { name: "Global 2" } });
  t.deepEqual(await h.knex("audit_logs").where({ auditable_type: "AgentBot", auditable_id: created.body.id }), []);
});

test("list shows only the calling app's bots", async (t) => {
  const other = await PlatformApp.createWithToken(`other-${randomUUID()}`);
  const mine = await h.request("POST", bots, { token: other.token, body: { name: "Mine" } });
  await h.request("POST", bots, { token: h.platformToken, body: { name: "Theirs" } });
  const listed = await h.request("GET", bots, { token: other.token });
  t.is(listed.status, 200);
  t.deepEqual(listed.body, [mine.body]);
});

test("an account the app did not provision cannot be given to a bot; unknown accounts are 404", async (t) => {
  const other = await PlatformApp.createWithToken(`other-${randomUUID()}`);
  const account = await createAccount(h);
  const probe = randomUUID();
  const refused = await h.request("POST", bots, { token: other.token, body: { name: probe, account_id: account.id } });
  t.is(refused.status, 401);
  t.deepEqual(refused.body, { error: "Non permissible resource" });
  const unknown = await h.request("POST", bots, { token: h.platformToken, body: { name: probe, account_id: 999999999 } });
  t.is(unknown.status, 404);
  t.deepEqual(await h.knex("agent_bots").where({ name: probe }), []);

  const { body: bot } = await h.request("POST", bots, { token: other.token, body: { name: "Y" } });
  const moved = await h.request("PATCH", `${bots}/${bot.id}`, { token: other.token, body: { account_id: account.id } });
  t.is(moved.status, 401);
  t.is((await h.knex("agent_bots").where({ id: bot.id }).first()).account_id, null);
});

test("validation: wrong types and bad urls are 422 and write nothing", async (t) => {
  const probe = randomUUID();
  const cases: [unknown, string, string][] = [
    [{ name: 5 }, "Name must be of type string", "name"],
    [{ outgoing_url: "not a url" }, "Outgoing url is invalid", "outgoing_url"],
    [{ outgoing_url: "ftp://example.com" }, "Outgoing url is invalid", "outgoing_url"],
    [{ outgoing_url: `https://example.com/${"a".repeat(2048)}` }, "Outgoing url is too long (maximum is 2048 characters)", "outgoing_url"],
    [{ account_id: "abc" }, "Account must be of type number", "account_id"],
  ];
  for (const [body, message, attribute] of cases) {
    const response = await h.request("POST", bots, { token: h.platformToken, body: { description: probe, ...(body as object) } });
    t.is(response.status, 422, JSON.stringify(body).slice(0, 80));
    t.deepEqual(response.body, { message, attributes: [attribute] });
  }
  t.deepEqual(await h.knex("agent_bots").where({ description: probe }), []);
});

test("unknown and non-numeric ids are 404", async (t) => {
  for (const id of ["999999999", "abc"]) {
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const response = await h.request(method, `${bots}/${id}`, { token: h.platformToken, body: method === "PATCH" ? { name: "x" } : undefined });
      t.is(response.status, 404, `${method} ${id}`);
      t.deepEqual(response.body, { error: "Resource could not be found" });
    }
  }
});
