import test from "ava";
import { accountDeletionWorkflowId } from "../../src/temporal/contracts";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";

// The worker runs the account deletion workflow of the last test.
const h = useHarness(test, { worker: true });

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/automation_rules`;

/** Chatwoot's sample rule (swagger). */
const sample = {
  name: "Add label on message create event",
  description: "Add label support and sales on message create event if incoming message content contains text help",
  event_name: "message_created",
  active: true,
  actions: [{ action_name: "add_label", action_params: ["support", "sales"] }],
  conditions: [{ attribute_key: "content", filter_operator: "contains", query_operator: null, values: ["help"] }],
};

async function createRule(account: TestAccount, body: Record<string, unknown> = sample) {
  const response = await h.request("POST", path(account), { token: account.admin.token, body });
  if (response.status !== 200) throw new Error(`create rule: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

const rowCount = async (account: TestAccount) => Number((await h.knex("automation_rules").where("account_id", account.id).count("* as n").first())!.n);

function assertRecentUnixSeconds(t: { true: (value: boolean, message?: string) => void }, value: unknown) {
  t.true(Number.isInteger(value) && Math.abs((value as number) - Date.now() / 1000) < 60, `created_on ${value} is unix seconds of now`);
}

test("create, show, list, update, clone and delete answer Chatwoot's shapes", async (t) => {
  const account = await createAccount(h);

  const created = await h.request("POST", path(account), { token: account.admin.token, body: sample });
  t.is(created.status, 200);
  const rule = created.body;
  t.deepEqual(Object.keys(rule), ["id", "account_id", "name", "description", "event_name", "conditions", "actions", "created_on", "active"]);
  t.true(Number.isInteger(rule.id));
  t.is(rule.account_id, account.id);
  t.is(rule.name, sample.name);
  t.is(rule.description, sample.description);
  t.is(rule.event_name, "message_created");
  t.deepEqual(rule.conditions, sample.conditions);
  t.deepEqual(rule.actions, sample.actions);
  assertRecentUnixSeconds(t, rule.created_on);
  t.is(rule.active, true);

  const shown = await h.request("GET", `${path(account)}/${rule.id}`, { token: account.admin.token });
  t.deepEqual([shown.status, shown.body], [200, { payload: rule }]);

  const listed = await h.request("GET", path(account), { token: account.admin.token });
  t.deepEqual([listed.status, listed.body], [200, { payload: [rule] }]);

  const patched = await h.request("PATCH", `${path(account)}/${rule.id}`, { token: account.admin.token, body: { name: "Renamed", active: false } });
  t.deepEqual([patched.status, patched.body], [200, { payload: { ...rule, name: "Renamed", active: false } }]);

  const conditions = [
    { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: "and" },
    { attribute_key: "inbox_id", filter_operator: "is_present", values: [], query_operator: null },
  ];
  const put = await h.request("PUT", `${path(account)}/${rule.id}`, { token: account.admin.token, body: { conditions, description: null } });
  const updated = { ...rule, name: "Renamed", active: false, conditions, description: null };
  t.deepEqual([put.status, put.body], [200, { payload: updated }]);

  const cloned = await h.request("POST", `${path(account)}/${rule.id}/clone`, { token: account.admin.token });
  t.is(cloned.status, 200);
  const copy = cloned.body.payload;
  t.not(copy.id, rule.id);
  assertRecentUnixSeconds(t, copy.created_on);
  t.deepEqual(copy, { ...updated, id: copy.id, created_on: copy.created_on }, "the copy keeps name, active and everything else");
  t.deepEqual((await h.request("GET", path(account), { token: account.admin.token })).body.payload, [updated, copy]);

  const deleted = await h.request("DELETE", `${path(account)}/${rule.id}`, { token: account.admin.token });
  t.is(deleted.status, 200);
  t.is(deleted.body, undefined, "head :ok has an empty body");
  t.deepEqual((await h.request("GET", path(account), { token: account.admin.token })).body.payload, [copy]);
  for (const [method, suffix] of [
    ["GET", ""],
    ["PATCH", ""],
    ["DELETE", ""],
    ["POST", "/clone"],
  ] as const) {
    const gone = await h.request(method, `${path(account)}/${rule.id}${suffix}`, {
      token: account.admin.token,
      body: method === "PATCH" ? { name: "x" } : undefined,
    });
    t.deepEqual([gone.status, gone.body], [404, { error: "Resource could not be found" }], `${method} ${suffix}`);
  }
});

test("a body wrapped under automation_rule works; active defaults to true and extra condition keys are kept", async (t) => {
  const account = await createAccount(h);
  const conditions = [
    {
      attribute_key: "status",
      filter_operator: "attribute_changed",
      values: { from: ["open"], to: ["resolved"] },
      query_operator: null,
      custom_attribute_type: "",
    },
  ];
  const actions = [{ action_name: "resolve_conversation" }, { action_name: "send_email_to_team", action_params: [{ team_ids: [1], message: "hi" }] }];
  const created = await h.request("POST", path(account), {
    token: account.admin.token,
    body: { automation_rule: { name: "Wrapped", event_name: "conversation_updated", conditions, actions } },
  });
  t.is(created.status, 200);
  t.like(created.body, { name: "Wrapped", description: null, event_name: "conversation_updated", active: true });
  t.deepEqual(created.body.conditions, conditions);
  t.deepEqual(created.body.actions, actions);

  const patched = await h.request("PATCH", `${path(account)}/${created.body.id}`, {
    token: account.admin.token,
    body: { automation_rule: { event_name: "conversation_created" } },
  });
  t.is(patched.body.payload.event_name, "conversation_created");
});

test("invalid rules answer 422 {error: errors.messages} as Chatwoot, and write nothing", async (t) => {
  const account = await createAccount(h);
  const condition = (attribute_key: string, query_operator: string | null = null) => ({
    attribute_key,
    filter_operator: "equal_to",
    values: ["x"],
    query_operator,
  });
  const cases: [Record<string, unknown>, Record<string, string[]>][] = [
    [{}, { name: ["can't be blank"], event_name: ["can't be blank"], conditions: ["can't be blank"], actions: ["can't be blank"] }],
    [
      { ...sample, name: "  ", event_name: null },
      { name: ["can't be blank"], event_name: ["can't be blank"] },
    ],
    [
      { ...sample, conditions: [], actions: null },
      { conditions: ["can't be blank"], actions: ["can't be blank"] },
    ],
    [
      { ...sample, conditions: [condition("foo", "AND"), condition("email", "OR"), condition("bar")] },
      { conditions: ["Automation conditions foo,bar not supported."] },
    ],
    [
      { ...sample, actions: [{ action_name: "explode", action_params: [] }, { action_name: "add_label" }] },
      { actions: ["Automation actions explode not supported."] },
    ],
    [{ ...sample, conditions: [condition("email"), condition("status")] }, { conditions: ["Automation conditions should have query operator."] }],
    [{ ...sample, conditions: [condition("email", "XOR"), condition("status")] }, { conditions: ['Query operator must be either "AND" or "OR"'] }],
    [
      { ...sample, conditions: [condition("nope", "NOT"), condition("city", "or"), condition("status")], actions: [{ action_name: "nope" }] },
      {
        conditions: ["Automation conditions nope not supported.", 'Query operator must be either "AND" or "OR"'],
        actions: ["Automation actions nope not supported."],
      },
    ],
  ];
  for (const [body, error] of cases) {
    const response = await h.request("POST", path(account), { token: account.admin.token, body });
    t.deepEqual([response.status, response.body], [422, { error }], JSON.stringify(body));
  }
  t.is(await rowCount(account), 0);
  t.deepEqual(await h.knex("audit_logs").where({ account_id: account.id, auditable_type: "AutomationRule" }), []);
});

test("an update is validated as the rule would be saved, in the same shape, and changes nothing when invalid", async (t) => {
  const account = await createAccount(h);
  const rule = await createRule(account);
  const cases: [Record<string, unknown>, Record<string, string[]>][] = [
    [{ name: null }, { name: ["can't be blank"] }],
    [
      {
        conditions: [
          { attribute_key: "content", filter_operator: "contains", values: ["x"] },
          { attribute_key: "email", values: ["y"] },
        ],
      },
      { conditions: ["Automation conditions should have query operator."] },
    ],
    [{ actions: [{ action_name: "add_sla_twice", action_params: [] }] }, { actions: ["Automation actions add_sla_twice not supported."] }],
  ];
  for (const [body, error] of cases) {
    const response = await h.request("PATCH", `${path(account)}/${rule.id}`, { token: account.admin.token, body });
    t.deepEqual([response.status, response.body], [422, { error }], JSON.stringify(body));
  }
  t.deepEqual((await h.request("GET", `${path(account)}/${rule.id}`, { token: account.admin.token })).body.payload, rule);
  const audits = await h.knex("audit_logs").where({ auditable_type: "AutomationRule", auditable_id: rule.id });
  t.deepEqual(
    audits.map((a) => a.action),
    ["create"],
  );
});

test("a JSON value of the wrong type is refused before the model, in the service's usual 422", async (t) => {
  const account = await createAccount(h);
  const wrongName = await h.request("POST", path(account), { token: account.admin.token, body: { ...sample, name: 42 } });
  t.deepEqual([wrongName.status, wrongName.body], [422, { message: "Name must be of type string", attributes: ["name"] }]);
  const wrongConditions = await h.request("POST", path(account), { token: account.admin.token, body: { ...sample, conditions: "content" } });
  t.is(wrongConditions.status, 422);
  t.deepEqual(wrongConditions.body.attributes, ["conditions"]);
  t.is(await rowCount(account), 0);
});

test("a condition may name a custom attribute definition of the account, and of no other", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h, "Other");
  const define = (owner: TestAccount, key: string) =>
    h.request("POST", `/api/v1/accounts/${owner.id}/custom_attribute_definitions`, {
      token: owner.admin.token,
      body: { attribute_display_name: key, attribute_key: key, attribute_display_type: 0, attribute_model: 1 },
    });
  t.is((await define(other, "tier")).status, 200);
  const body = {
    ...sample,
    conditions: [{ attribute_key: "tier", filter_operator: "equal_to", values: ["gold"], query_operator: null, custom_attribute_type: "contact_attribute" }],
  };

  const before = await h.request("POST", path(account), { token: account.admin.token, body });
  t.deepEqual([before.status, before.body], [422, { error: { conditions: ["Automation conditions tier not supported."] } }]);

  const definition = await define(account, "tier");
  t.is(definition.status, 200);
  const created = await h.request("POST", path(account), { token: account.admin.token, body });
  t.is(created.status, 200);
  t.deepEqual(created.body.conditions, body.conditions);

  // Chatwoot's clone saves with save!: once the definition is gone the copy is invalid, and says so as RecordInvalid does.
  t.is((await accountApi(h, account).delete(`/custom_attribute_definitions/${definition.body.id}`)).status, 204);
  const clone = await h.request("POST", `${path(account)}/${created.body.id}/clone`, { token: account.admin.token });
  t.deepEqual([clone.status, clone.body], [422, { message: "Conditions Automation conditions tier not supported.", attributes: ["conditions"] }]);
  t.is(await rowCount(account), 1);
});

test("automation rules are for administrators of the account only, and scoped to it", async (t) => {
  const account = await createAccount(h);
  const rule = await createRule(account);
  const denied = { error: "You are not authorized to do this action" };
  const endpoints: [string, string, unknown][] = [
    ["GET", path(account), undefined],
    ["POST", path(account), { name: 42, conditions: "nope" }],
    ["GET", `${path(account)}/${rule.id}`, undefined],
    ["PATCH", `${path(account)}/${rule.id}`, { actions: [{ action_name: "nope" }] }],
    ["PUT", `${path(account)}/${rule.id}`, { name: "x" }],
    ["DELETE", `${path(account)}/${rule.id}`, undefined],
    ["POST", `${path(account)}/${rule.id}/clone`, undefined],
    ["GET", `${path(account)}/999999999`, undefined],
  ];
  for (const [method, url, body] of endpoints) {
    const response = await h.request(method, url, { token: account.agent.token, body });
    t.deepEqual([response.status, response.body], [401, denied], `${method} ${url}`);
  }
  t.is(await rowCount(account), 1);

  const other = await createAccount(h, "Other");
  t.is((await h.request("GET", path(account), { token: other.admin.token })).status, 401, "not a member of the account");
  const otherRule = `${path(other)}/${rule.id}`;
  for (const [method, url, body] of [
    ["GET", otherRule, undefined],
    ["PATCH", otherRule, { name: "x" }],
    ["PUT", otherRule, { name: "x" }],
    ["DELETE", otherRule, undefined],
    ["POST", `${otherRule}/clone`, undefined],
  ] as const) {
    const response = await h.request(method, url, { token: other.admin.token, body });
    t.deepEqual([response.status, response.body], [404, { error: "Resource could not be found" }], `${method} ${url}`);
  }
  t.deepEqual((await h.request("GET", path(other), { token: other.admin.token })).body, { payload: [] });
  t.is((await h.request("GET", `${path(account)}/abc`, { token: account.admin.token })).status, 404);
  t.deepEqual((await h.request("GET", `${path(account)}/${rule.id}`, { token: account.admin.token })).body.payload, rule, "untouched");
});

test("create, update, clone and destroy are audited in the account's log, as the audited gem writes them", async (t) => {
  const account = await createAccount(h);
  const rule = await createRule(account);
  await h.request("PATCH", `${path(account)}/${rule.id}`, { token: account.admin.token, body: { name: "Renamed", active: false } });
  await h.request("PATCH", `${path(account)}/${rule.id}`, { token: account.admin.token, body: { name: "Renamed" } });
  t.is((await h.request("PATCH", `${path(account)}/${rule.id}`, { token: account.admin.token, body: {} })).status, 200);
  const copy = (await h.request("POST", `${path(account)}/${rule.id}/clone`, { token: account.admin.token })).body.payload;
  await h.request("DELETE", `${path(account)}/${rule.id}`, { token: account.admin.token, headers: { "x-request-id": "req-rule-delete" } });

  const attributes = {
    account_id: account.id,
    name: sample.name,
    description: sample.description,
    event_name: sample.event_name,
    conditions: sample.conditions,
    actions: sample.actions,
    active: true,
  };
  const rows = await h.knex("audit_logs").where({ account_id: account.id, auditable_type: "AutomationRule" }).orderBy("id");
  t.deepEqual(
    rows.map((row) => [row.auditable_id, row.action, row.version]),
    [
      [rule.id, "create", 1],
      [rule.id, "update", 2],
      [copy.id, "create", 1],
      [rule.id, "destroy", 3],
    ],
    "an update that changes nothing leaves no row",
  );
  t.deepEqual(rows[0].audited_changes, attributes);
  t.deepEqual(rows[1].audited_changes, { name: [sample.name, "Renamed"], active: [true, false] });
  t.deepEqual(rows[2].audited_changes, { ...attributes, name: "Renamed", active: false });
  t.deepEqual(rows[3].audited_changes, { ...attributes, name: "Renamed", active: false });
  for (const row of rows) t.like(row, { user_id: account.admin.id, user_type: "User", username: account.admin.email, associated_type: null });
  t.is(rows[3].request_uuid, "req-rule-delete");

  const log = await accountApi(h, account).get("/audit_logs");
  const listed = log.body.audit_logs.filter((entry: any) => entry.auditable_type === "AutomationRule");
  t.deepEqual(
    listed.map((entry: any) => [entry.auditable_id, entry.action, entry.auditable]),
    [
      [rule.id, "destroy", null],
      [copy.id, "create", null],
      [rule.id, "update", null],
      [rule.id, "create", null],
    ],
  );
});

test("the list is in id order, 25 a page", async (t) => {
  const account = await createAccount(h);
  const now = new Date();
  const rows = Array.from({ length: 26 }, (_, i) => ({
    account_id: account.id,
    name: `Rule ${i}`,
    event_name: "conversation_created",
    conditions: JSON.stringify(sample.conditions),
    actions: JSON.stringify(sample.actions),
    created_at: now,
    updated_at: now,
  }));
  await h.knex("automation_rules").insert(rows);
  const page = async (query: string) =>
    (await h.request("GET", `${path(account)}${query}`, { token: account.admin.token })).body.payload.map((r: any) => r.name);
  const first = await page("");
  t.deepEqual(
    first,
    rows.slice(0, 25).map((r) => r.name),
  );
  t.deepEqual(await page("?page=1"), first);
  t.deepEqual(await page("?page=2"), ["Rule 25"]);
  t.deepEqual(await page("?page=3"), []);
});

test("the endpoints are in the OpenAPI document", async (t) => {
  const doc = (await h.request("GET", "/api-docs/openapi.json")).body;
  const base = "/api/v1/accounts/{account_id}/automation_rules";
  t.deepEqual(Object.keys(doc.paths[base]).sort(), ["get", "post"]);
  t.deepEqual(Object.keys(doc.paths[`${base}/{id}`]).sort(), ["delete", "get", "patch", "put"]);
  t.deepEqual(Object.keys(doc.paths[`${base}/{id}/clone`]), ["post"]);
});

test("deleting an account deletes its automation rules", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h, "Other");
  await createRule(account);
  await createRule(other);
  t.is((await h.request("DELETE", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken })).status, 200);
  await h.deps.temporal.client.workflow.getHandle(accountDeletionWorkflowId(h.deps.temporal.installationId, account.id)).result();
  t.is(await rowCount(account), 0);
  t.is(await rowCount(other), 1);
});
