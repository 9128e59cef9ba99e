import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { createContact } from "../support/conversationFactories";
import { useHarness } from "../support/harness";
import { validateCustomAttributes } from "../../src/services/customAttributes";
import type { ValidationError } from "../../src/errors";

const h = useHarness(test);
let account: TestAccount;

const DEFINITIONS = [
  { attribute_key: "nickname", attribute_display_type: 0 },
  { attribute_key: "code", attribute_display_type: 0, regex_pattern: "^[A-Z]{3}-\\d+$", regex_cue: "must look like ABC-123" },
  { attribute_key: "literal", attribute_display_type: 0, regex_pattern: "/^yes$/i", regex_cue: "must be yes" },
  { attribute_key: "age", attribute_display_type: 1 },
  { attribute_key: "budget", attribute_display_type: 2 },
  { attribute_key: "discount", attribute_display_type: 3 },
  { attribute_key: "homepage", attribute_display_type: 4 },
  { attribute_key: "birthday", attribute_display_type: 5 },
  { attribute_key: "tier", attribute_display_type: 6, attribute_values: ["gold", "silver"] },
  { attribute_key: "vip", attribute_display_type: 7 },
];

test.before(async () => {
  account = await createAccount(h);
  for (const definition of DEFINITIONS) {
    const response = await h.request("POST", `/api/v1/accounts/${account.id}/custom_attribute_definitions`, {
      token: account.admin.token,
      body: { attribute_display_name: definition.attribute_key, attribute_model: 1, ...definition },
    });
    if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  }
});

const VALID: Record<string, unknown> = {
  nickname: "Jo",
  code: "ABC-42",
  literal: "YES",
  age: 42,
  budget: "1999.50",
  discount: 12.5,
  homepage: "https://jo.example/about",
  birthday: "1990-04-01",
  tier: "gold",
  vip: true,
};

test("values that fit every display type are accepted and stored", async (t) => {
  const { contact } = await createContact(h, account, { custom_attributes: VALID });
  t.deepEqual(contact.custom_attributes, VALID);
  const iso = await h.request("PATCH", `/api/v1/accounts/${account.id}/contacts/${contact.id}`, {
    token: account.agent.token,
    body: { custom_attributes: { birthday: "1990-04-01T00:00:00.000Z", vip: false, nickname: null } },
  });
  t.is(iso.status, 200);
  t.like(iso.body.payload.custom_attributes, { birthday: "1990-04-01T00:00:00.000Z", vip: false, nickname: null });
});

const INVALID: [string, unknown, string][] = [
  ["nickname", 12, "Custom attributes nickname must be a text"],
  ["code", "abc-1", "Custom attributes code must look like ABC-123"],
  ["literal", "no", "Custom attributes literal must be yes"],
  ["age", "forty", "Custom attributes age must be a number"],
  ["budget", true, "Custom attributes budget must be a number"],
  ["discount", "10%", "Custom attributes discount must be a number"],
  ["homepage", "javascript:alert(1)", "Custom attributes homepage must be a valid http(s) link"],
  ["birthday", "yesterday", "Custom attributes birthday must be a date (YYYY-MM-DD or ISO 8601)"],
  ["birthday", "2024-13-45", "Custom attributes birthday must be a date (YYYY-MM-DD or ISO 8601)"],
  ["tier", "bronze", "Custom attributes tier must be one of: gold, silver"],
  ["vip", "yes", "Custom attributes vip must be true or false"],
];

for (const [key, value, message] of INVALID) {
  test(`a ${key} of ${JSON.stringify(value)} is refused with 422 on create and update, and nothing is written`, async (t) => {
    const created = await h.request("POST", `/api/v1/accounts/${account.id}/contacts`, {
      token: account.agent.token,
      body: { name: `bad ${key}`, custom_attributes: { ...VALID, [key]: value } },
    });
    t.is(created.status, 422);
    t.deepEqual(created.body, { message, attributes: ["custom_attributes"] });
    t.is((await h.knex("contacts").where({ account_id: account.id, name: `bad ${key}` })).length, 0);

    const { contact } = await createContact(h, account, { name: `target ${key}` });
    const updated = await h.request("PATCH", `/api/v1/accounts/${account.id}/contacts/${contact.id}`, {
      token: account.agent.token,
      body: { name: "renamed", custom_attributes: { vip: true, [key]: value } },
    });
    t.is(updated.status, 422);
    t.deepEqual(updated.body, { message, attributes: ["custom_attributes"] });
    t.like(await h.knex("contacts").where("id", contact.id).first(), { name: `target ${key}`, custom_attributes: {} });
  });
}

test("every failing key is reported together", async (t) => {
  const error = await t.throwsAsync(validateCustomAttributes(h.knex, account.id, "contact_attribute", { age: "x", vip: 1, tier: "gold" }));
  t.is((error as ValidationError).status, 422);
  t.deepEqual((error as ValidationError).body, {
    message: "Custom attributes age must be a number, Custom attributes vip must be true or false",
    attributes: ["custom_attributes"],
  });
});

test("a contact definition does not cover conversation attributes, and other accounts' definitions do not count", async (t) => {
  // Keys without a definition are stored as sent (Chatwoot stores any key): no rule applies to them.
  await t.notThrowsAsync(validateCustomAttributes(h.knex, account.id, "conversation_attribute", { age: "forty" }));
  const stranger = await createAccount(h);
  await t.notThrowsAsync(validateCustomAttributes(h.knex, stranger.id, "contact_attribute", { age: "forty" }));
  await t.throwsAsync(validateCustomAttributes(h.knex, account.id, "contact_attribute", { age: "forty" }));
  await t.notThrowsAsync(validateCustomAttributes(h.knex, account.id, "contact_attribute", {}));
});

test("a catastrophic-backtracking pattern runs in linear time: the value is judged at once and other requests never wait", async (t) => {
  const own = await createAccount(h);
  const defined = await h.request("POST", `/api/v1/accounts/${own.id}/custom_attribute_definitions`, {
    token: own.admin.token,
    body: {
      attribute_display_name: "Greedy",
      attribute_key: "greedy",
      attribute_model: 1,
      attribute_display_type: 0,
      regex_pattern: "^(a+)+$",
      regex_cue: "only a",
    },
  });
  t.is(defined.status, 200);
  const { contact } = await createContact(h, own, { custom_attributes: { greedy: "aaaa" } });
  // A backtracking engine needs about 2^31 steps (over ten seconds, doubling with each extra character) for this value.
  const evil = `${"a".repeat(31)}!`;
  const started = Date.now();
  const [update, health] = await Promise.all([
    h.request("PATCH", `/api/v1/accounts/${own.id}/contacts/${contact.id}`, { token: own.agent.token, body: { custom_attributes: { greedy: evil } } }),
    h.request("GET", "/health"),
  ]);
  t.is(update.status, 422);
  t.deepEqual(update.body, { message: "Custom attributes greedy only a", attributes: ["custom_attributes"] });
  // Health answered meanwhile (its status also depends on a relay, which this file does not run).
  t.like(health.body, { database: "ok", temporal: "ok" });
  t.true(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
  const long = await h.request("PATCH", `/api/v1/accounts/${own.id}/contacts/${contact.id}`, {
    token: own.agent.token,
    body: { custom_attributes: { greedy: "a".repeat(50_000) } },
  });
  t.is(long.status, 200);
});

test("patterns the linear-time engine cannot run are refused when defined, with a reason", async (t) => {
  const own = await createAccount(h);
  for (const regex_pattern of ["^(?=.*\\d).+$", "(a)\\1", "(?<!x)y"]) {
    const response = await h.request("POST", `/api/v1/accounts/${own.id}/custom_attribute_definitions`, {
      token: own.admin.token,
      body: { attribute_display_name: "P", attribute_key: "p", attribute_model: 1, regex_pattern },
    });
    t.is(response.status, 422, regex_pattern);
    t.deepEqual(response.body.attributes, ["regex_pattern"]);
    t.regex(response.body.message, /^Regex pattern is not supported: patterns run on a linear-time engine/, regex_pattern);
  }
  t.is((await h.knex("custom_attribute_definitions").where("account_id", own.id)).length, 0);
});
