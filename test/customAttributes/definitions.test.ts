import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/custom_attribute_definitions`;

test("create, list with attribute_model filter, show, update and delete (204) in Chatwoot's shapes", async (t) => {
  const account = await createAccount(h);
  const created = await h.request("POST", path(account), {
    token: account.admin.token,
    body: {
      custom_attribute_definition: {
        attribute_display_name: "Plan",
        attribute_key: "plan",
        attribute_display_type: 6,
        attribute_model: 1,
        attribute_values: ["free", "pro"],
        attribute_description: "Billing plan",
      },
    },
  });
  t.is(created.status, 200);
  const definition = created.body;
  t.deepEqual(definition, {
    id: definition.id,
    attribute_display_name: "Plan",
    attribute_display_type: "list",
    attribute_description: "Billing plan",
    attribute_key: "plan",
    regex_pattern: null,
    regex_cue: null,
    attribute_values: ["free", "pro"],
    attribute_model: "contact_attribute",
    default_value: null,
    created_at: definition.created_at,
    updated_at: definition.updated_at,
  });
  t.false(Number.isNaN(Date.parse(definition.created_at)));
  const conversationOne = await h.request("POST", path(account), {
    token: account.admin.token,
    body: { attribute_display_name: "Order", attribute_key: "plan", attribute_display_type: "number", attribute_model: "conversation_attribute" },
  });
  t.is(conversationOne.status, 200, "the same key is free for the other model");
  t.is(conversationOne.body.attribute_display_type, "number");

  const all = await h.request("GET", path(account), { token: account.agent.token });
  t.deepEqual(
    all.body.map((d: any) => d.id),
    [definition.id, conversationOne.body.id],
  );
  const contactOnly = await h.request("GET", `${path(account)}?attribute_model=1`, { token: account.agent.token });
  t.deepEqual(contactOnly.body, [definition]);
  const byName = await h.request("GET", `${path(account)}?attribute_model=conversation_attribute`, { token: account.agent.token });
  t.deepEqual(
    byName.body.map((d: any) => d.id),
    [conversationOne.body.id],
  );

  t.deepEqual((await h.request("GET", `${path(account)}/${definition.id}`, { token: account.agent.token })).body, definition);

  const updated = await h.request("PATCH", `${path(account)}/${definition.id}`, {
    token: account.admin.token,
    body: { attribute_display_name: "Billing plan", attribute_values: ["free", "pro", "team"] },
  });
  t.is(updated.status, 200);
  t.like(updated.body, { attribute_display_name: "Billing plan", attribute_values: ["free", "pro", "team"], attribute_key: "plan" });

  const deleted = await h.request("DELETE", `${path(account)}/${definition.id}`, { token: account.admin.token });
  t.is(deleted.status, 204);
  t.is((await h.request("GET", `${path(account)}/${definition.id}`, { token: account.admin.token })).status, 404);
});

test("validation: required fields, key format, uniqueness per account and model, reserved keys, codes, regex", async (t) => {
  const account = await createAccount(h);
  const token = account.admin.token;
  await h.request("POST", path(account), { token, body: { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: 1 } });
  const cases: [Record<string, unknown>, string, string[]][] = [
    [{ attribute_key: "x" }, "Attribute display name can't be blank", ["attribute_display_name"]],
    [{ attribute_display_name: "X" }, "Attribute key can't be blank", ["attribute_key"]],
    [
      { attribute_display_name: "X", attribute_key: "has space" },
      "Attribute key must only contain letters, numbers, underscores, hyphens, and dots",
      ["attribute_key"],
    ],
    [{ attribute_display_name: "X", attribute_key: "tier", attribute_model: 1 }, "Attribute key has already been taken", ["attribute_key"]],
    [
      { attribute_display_name: "X", attribute_key: "email", attribute_model: 1 },
      "Attribute key The provided key is not allowed as it might conflict with default attributes.",
      ["attribute_key"],
    ],
    [
      { attribute_display_name: "X", attribute_key: "status", attribute_model: 0 },
      "Attribute key The provided key is not allowed as it might conflict with default attributes.",
      ["attribute_key"],
    ],
    [
      { attribute_display_name: "X", attribute_key: "k", attribute_display_type: 8 },
      "Attribute display type is not included in the list",
      ["attribute_display_type"],
    ],
    [
      { attribute_display_name: "X", attribute_key: "k", attribute_model: "company_attribute" },
      "Attribute model is not included in the list",
      ["attribute_model"],
    ],
    [{ attribute_display_name: "X", attribute_key: "k", regex_pattern: "([a-z" }, "Regex pattern is invalid", ["regex_pattern"]],
  ];
  for (const [body, message, attributes] of cases) {
    const response = await h.request("POST", path(account), { token, body });
    t.is(response.status, 422, JSON.stringify(body));
    t.deepEqual(response.body, { message, attributes });
  }
  t.is((await h.knex("custom_attribute_definitions").where("account_id", account.id)).length, 1);
  // The reserved list is a contact/conversation split: "status" is fine for contacts.
  t.is((await h.request("POST", path(account), { token, body: { attribute_display_name: "S", attribute_key: "status", attribute_model: 1 } })).status, 200);
});

test("agents may read but not write definitions; other accounts' definitions are not found", async (t) => {
  const account = await createAccount(h);
  const created = await h.request("POST", path(account), { token: account.admin.token, body: { attribute_display_name: "A", attribute_key: "a" } });
  t.is(created.body.attribute_model, "conversation_attribute");
  t.is(created.body.attribute_display_type, "text");
  t.is((await h.request("POST", path(account), { token: account.agent.token, body: { attribute_display_name: "B", attribute_key: "b" } })).status, 401);
  t.is((await h.request("PATCH", `${path(account)}/${created.body.id}`, { token: account.agent.token, body: { attribute_display_name: "x" } })).status, 401);
  t.is((await h.request("DELETE", `${path(account)}/${created.body.id}`, { token: account.agent.token })).status, 401);

  const stranger = await createAccount(h);
  t.is((await h.request("GET", `${path(stranger)}/${created.body.id}`, { token: stranger.admin.token })).status, 404);
  t.is((await h.request("DELETE", `${path(stranger)}/${created.body.id}`, { token: stranger.admin.token })).status, 404);
  t.deepEqual((await h.request("GET", path(stranger), { token: stranger.admin.token })).body, []);
});
