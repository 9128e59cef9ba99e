import test from "ava";
import { createAccount, createUser, addToAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { accountDeletionWorkflowId } from "../../src/temporal/contracts";

// The worker runs the account deletion workflow of the last test.
const h = useHarness(test, { worker: true });

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/custom_filters`;

/** What the dashboard saves for "open conversations in inbox 1 or 2". */
const openInInboxes = {
  payload: [
    { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: "and" },
    { attribute_key: "inbox_id", filter_operator: "equal_to", values: [{ id: 1, name: "Support" }, 2], query_operator: null, custom_attribute_type: "" },
  ],
};

async function createFilter(account: TestAccount, token: string, body: Record<string, unknown>) {
  const response = await h.request("POST", path(account), { token, body });
  if (response.status !== 200) throw new Error(`create filter: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

function assertIsoNow(t: { true: (value: boolean, message?: string) => void }, value: unknown) {
  t.true(typeof value === "string" && Math.abs(Date.parse(value) - Date.now()) < 60_000, `${value} is an ISO time of now`);
}

test("create, show, list, update and delete answer Chatwoot's shapes", async (t) => {
  const account = await createAccount(h);
  const token = account.agent.token;

  const created = await h.request("POST", path(account), {
    token,
    body: { custom_filter: { name: "Open in my inboxes", filter_type: "conversation", query: openInInboxes } },
  });
  t.is(created.status, 200);
  const filter = created.body;
  t.deepEqual(Object.keys(filter), ["id", "name", "filter_type", "query", "created_at", "updated_at"]);
  t.like(filter, { name: "Open in my inboxes", filter_type: "conversation", query: openInInboxes });
  assertIsoNow(t, filter.created_at);
  assertIsoNow(t, filter.updated_at);

  // A bare body (Rails' params wrapper) and the integer code of the type work as well.
  const contactFilter = await createFilter(account, token, {
    name: "Leads",
    filter_type: 1,
    query: { payload: [{ attribute_key: "email", filter_operator: "is_present", query_operator: null }] },
  });
  t.is(contactFilter.filter_type, "contact");

  t.deepEqual(await h.request("GET", `${path(account)}/${filter.id}`, { token }).then((r) => [r.status, r.body]), [200, filter]);
  t.deepEqual(await h.request("GET", `${path(account)}/${contactFilter.id}`, { token }).then((r) => r.body), contactFilter, "show finds a filter of any type");

  const conversations = await h.request("GET", path(account), { token });
  t.deepEqual([conversations.status, conversations.body], [200, [filter]], "the list defaults to conversation filters");
  t.deepEqual((await h.request("GET", `${path(account)}?filter_type=contact`, { token })).body, [contactFilter]);
  t.deepEqual((await h.request("GET", `${path(account)}?filter_type=report`, { token })).body, []);

  const renamed = await h.request("PATCH", `${path(account)}/${filter.id}`, { token, body: { custom_filter: { name: "Renamed" } } });
  t.is(renamed.status, 200);
  t.like(renamed.body, { id: filter.id, name: "Renamed", filter_type: "conversation", query: openInInboxes, created_at: filter.created_at });
  t.true(Date.parse(renamed.body.updated_at) >= Date.parse(filter.updated_at));

  const query = { payload: [{ attribute_key: "priority", filter_operator: "equal_to", values: ["urgent"], query_operator: "OR" }] };
  const replaced = await h.request("PUT", `${path(account)}/${filter.id}`, { token, body: { query, filter_type: "report" } });
  t.like(replaced.body, { name: "Renamed", filter_type: "report", query });
  t.deepEqual((await h.request("GET", `${path(account)}?filter_type=report`, { token })).body, [replaced.body]);

  const deleted = await h.request("DELETE", `${path(account)}/${filter.id}`, { token });
  t.deepEqual([deleted.status, deleted.body], [204, undefined]);
  t.is((await h.request("GET", `${path(account)}/${filter.id}`, { token })).status, 404);
  t.deepEqual(
    (await h.knex("custom_filters").where("account_id", account.id).select("id")).map((row) => row.id),
    [contactFilter.id],
  );
});

test("filters belong to their user in their account", async (t) => {
  const account = await createAccount(h);
  const mine = await createFilter(account, account.agent.token, { name: "Mine", query: openInInboxes });
  const theirs = await createFilter(account, account.admin.token, { name: "Admin's", query: openInInboxes });

  t.deepEqual((await h.request("GET", path(account), { token: account.agent.token })).body, [mine]);
  t.deepEqual((await h.request("GET", path(account), { token: account.admin.token })).body, [theirs]);
  const notFound = { error: "Resource could not be found" };
  for (const [method, body] of [["GET"], ["PATCH", { name: "Taken" }], ["DELETE"]] as const) {
    const response = await h.request(method, `${path(account)}/${theirs.id}`, { token: account.agent.token, body });
    t.deepEqual([response.status, response.body], [404, notFound], `${method} of another user's filter`);
  }
  t.is((await h.knex("custom_filters").where("id", theirs.id).first()).name, "Admin's", "nothing changed");

  // The same user in another account sees only that account's filters.
  const other = await createAccount(h, "Other");
  await addToAccount(h, other.id, account.agent.id, "agent");
  t.deepEqual((await h.request("GET", path(other), { token: account.agent.token })).body, []);
  t.is((await h.request("GET", `${path(other)}/${mine.id}`, { token: account.agent.token })).status, 404);

  const outsider = await createUser(h);
  const denied = await h.request("GET", path(account), { token: outsider.token });
  t.deepEqual([denied.status, denied.body], [401, { error: "You are not authorized to access this account" }]);
});

test("agent bots cannot use saved filters", async (t) => {
  const account = await createAccount(h);
  const bot = await h.request("POST", `/api/v1/accounts/${account.id}/agent_bots`, {
    token: account.admin.token,
    body: { name: "Bot", outgoing_url: "https://bot.example.com" },
  });
  const response = await h.request("GET", path(account), { token: bot.body.access_token });
  t.deepEqual([response.status, response.body], [401, { error: "Access to this endpoint is not authorized for bots" }]);
});

test("a filter that is not a valid filter answers 422 in Chatwoot's shape and saves nothing", async (t) => {
  const account = await createAccount(h);
  const token = account.agent.token;
  const cases: [Record<string, unknown>, { message: string; attributes: string[] }][] = [
    [{ query: openInInboxes }, { message: "Name can't be blank", attributes: ["name"] }],
    [{ name: "No query" }, { message: "Query can't be blank", attributes: ["query"] }],
    [
      { name: "Bad type", filter_type: "inbox", query: openInInboxes },
      { message: "Filter type is not included in the list", attributes: ["filter_type"] },
    ],
    [
      { name: "Empty", query: { payload: [] } },
      { message: "Payload can't be blank", attributes: ["payload"] },
    ],
    [
      { name: "Bad operator", query: { payload: [{ attribute_key: "status", filter_operator: "matches", values: ["open"] }] } },
      { message: "Filter operator is not included in the list", attributes: ["filter_operator"] },
    ],
    [
      { name: "Bad join", query: { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: "xor" }] } },
      { message: "Query operator is not included in the list", attributes: ["query_operator"] },
    ],
    [
      { name: "No key", query: { payload: [{ filter_operator: "equal_to", values: ["open"] }] } },
      { message: "Attribute key can't be blank", attributes: ["attribute_key"] },
    ],
    [
      { name: "Values not a list", query: { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: "open" }] } },
      { message: "Values must be of type array", attributes: ["values"] },
    ],
  ];
  for (const [body, error] of cases) {
    const response = await h.request("POST", path(account), { token, body });
    t.deepEqual([response.status, response.body], [422, error], JSON.stringify(body));
  }
  t.is(Number((await h.knex("custom_filters").where("account_id", account.id).count("* as n").first())!.n), 0);

  const filter = await createFilter(account, token, { name: "Kept", query: openInInboxes });
  const update = await h.request("PATCH", `${path(account)}/${filter.id}`, { token, body: { name: null } });
  t.deepEqual([update.status, update.body], [422, { message: "Name can't be blank", attributes: ["name"] }]);
  t.deepEqual((await h.request("GET", `${path(account)}/${filter.id}`, { token })).body, filter);

  const list = await h.request("GET", `${path(account)}?filter_type=macro`, { token });
  t.deepEqual([list.status, list.body], [422, { message: "Filter type is not included in the list", attributes: ["filter_type"] }]);
});

test("a user keeps at most 51 filters per account, as Chatwoot counts, even under 50 parallel requests", async (t) => {
  const account = await createAccount(h);
  const rows = Array.from({ length: 50 }, (_, i) => ({
    account_id: account.id,
    user_id: account.agent.id,
    name: `Filter ${i}`,
    filter_type: 0,
    query: openInInboxes,
  }));
  await h.knex("custom_filters").insert(rows);

  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      h.request("POST", path(account), { token: account.agent.token, body: { name: `Parallel ${i}`, query: openInInboxes } }),
    ),
  );
  const limit = { message: "Account We do not allow creating >50 custom views per account per user", attributes: ["account_id"] };
  t.is(responses.filter((r) => r.status === 200).length, 1, "with 50 saved, one more may be");
  t.true(responses.filter((r) => r.status !== 200).every((r) => r.status === 422 && JSON.stringify(r.body) === JSON.stringify(limit)));
  t.is(Number((await h.knex("custom_filters").where({ account_id: account.id, user_id: account.agent.id }).count("* as n").first())!.n), 51);

  // Chatwoot validates the count on update too, so at 51 a filter can no longer be changed.
  const [first] = (await h.request("GET", path(account), { token: account.agent.token })).body;
  const update = await h.request("PATCH", `${path(account)}/${first.id}`, { token: account.agent.token, body: { name: "Renamed" } });
  t.deepEqual([update.status, update.body], [422, limit]);

  // Other users of the account have their own allowance.
  t.is((await h.request("POST", path(account), { token: account.admin.token, body: { name: "Admin's", query: openInInboxes } })).status, 200);
});

test("deleting the account deletes its saved filters", async (t) => {
  const account = await createAccount(h);
  await createFilter(account, account.agent.token, { name: "Mine", query: openInInboxes });
  t.is((await h.request("DELETE", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken })).status, 200);
  await h.deps.temporal.client.workflow.getHandle(accountDeletionWorkflowId(h.deps.temporal.installationId, account.id)).result();
  t.deepEqual(await h.knex("custom_filters").where("account_id", account.id), []);
  t.is(await h.knex("accounts").where("id", account.id).first(), undefined);
});
