import test from "ava";
import { createAccount } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const crPath = (accountId: number) => `/api/v1/accounts/${accountId}/canned_responses`;

test("create answers the record as Rails renders it and audits it; any member may create", async (t) => {
  const account = await createAccount(h);
  const response = await h.request("POST", crPath(account.id), {
    token: account.agent.token,
    body: { canned_response: { short_code: "greet", content: "Hello there!" } },
  });
  t.is(response.status, 200);
  const row = await h.knex("canned_responses").where({ id: response.body.id }).first();
  t.deepEqual(response.body, {
    id: Number(row.id),
    account_id: account.id,
    short_code: "greet",
    content: "Hello there!",
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
  const audit = await h.knex("audit_logs").where({ auditable_type: "CannedResponse", auditable_id: row.id }).first();
  t.like(audit, { action: "create", username: account.agent.email });
  t.deepEqual(audit.audited_changes, { short_code: "greet", content: "Hello there!", account_id: account.id });

  const bare = await h.request("POST", crPath(account.id), { token: account.admin.token, body: { short_code: "bye", content: "Goodbye" } });
  t.is(bare.status, 200);
});

test("short code and content are required and the short code is unique in the account", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const blank = await h.request("POST", crPath(account.id), { token: account.admin.token, body: { canned_response: { short_code: " " } } });
  t.deepEqual([blank.status, blank.body], [422, { message: "Content can't be blank, Short code can't be blank", attributes: ["content", "short_code"] }]);
  await expectOk(h.request("POST", crPath(account.id), { token: account.admin.token, body: { short_code: "dup", content: "One" } }), "first");
  const dup = await h.request("POST", crPath(account.id), { token: account.admin.token, body: { short_code: "dup", content: "Two" } });
  t.deepEqual([dup.status, dup.body], [422, { message: "Short code has already been taken", attributes: ["short_code"] }]);
  t.is((await h.request("POST", crPath(other.id), { token: other.admin.token, body: { short_code: "dup", content: "Mine" } })).status, 200);

  const racing = await Promise.all(
    Array.from({ length: 50 }, (_, i) => h.request("POST", crPath(account.id), { token: account.agent.token, body: { short_code: "race", content: `n${i}` } })),
  );
  t.is(racing.filter((r) => r.status === 200).length, 1);
  t.true(racing.filter((r) => r.status !== 200).every((r) => r.status === 422 && r.body.message === "Short code has already been taken"));
});

test("list answers a bare array; search matches short code or content, best matches first", async (t) => {
  const account = await createAccount(h);
  const make = (short_code: string, content: string) =>
    expectOk(h.request("POST", crPath(account.id), { token: account.admin.token, body: { short_code, content } }), short_code);
  const inContent = await make("thanks", "We will ship your order soon");
  const inCode = await make("my-order", "Status update");
  const prefix = await make("order-status", "Here is the status");
  await make("hello", "Hi!");
  await make("pct", "100% off");

  const all = await expectOk(h.request("GET", crPath(account.id), { token: account.agent.token }), "all");
  t.is(all.length, 5);
  const search = await expectOk(h.request("GET", `${crPath(account.id)}?search=ORDER`, { token: account.agent.token }), "search");
  t.deepEqual(
    search.map((r: { id: number }) => r.id),
    [prefix.id, inCode.id, inContent.id],
  );
  const literal = await expectOk(h.request("GET", `${crPath(account.id)}?search=${encodeURIComponent("0%")}`, { token: account.agent.token }), "literal");
  t.deepEqual(
    literal.map((r: { short_code: string }) => r.short_code),
    ["pct"],
    "% is matched literally",
  );
  const other = await createAccount(h);
  t.deepEqual(await expectOk(h.request("GET", crPath(other.id), { token: other.agent.token }), "other"), [], "scoped to the account");
});

test("update and delete, audited; another account's response is 404", async (t) => {
  const account = await createAccount(h);
  const created = await expectOk(
    h.request("POST", crPath(account.id), { token: account.admin.token, body: { short_code: "old", content: "Old text" } }),
    "create",
  );
  const updated = await h.request("PATCH", `${crPath(account.id)}/${created.id}`, {
    token: account.agent.token,
    body: { canned_response: { content: "New text" } },
  });
  t.is(updated.status, 200);
  t.like(updated.body, { id: created.id, short_code: "old", content: "New text" });
  const audit = await h.knex("audit_logs").where({ auditable_type: "CannedResponse", auditable_id: created.id, action: "update" }).first();
  t.deepEqual(audit.audited_changes, { content: ["Old text", "New text"] });

  const taken = await expectOk(h.request("POST", crPath(account.id), { token: account.admin.token, body: { short_code: "taken", content: "x" } }), "taken");
  const clash = await h.request("PUT", `${crPath(account.id)}/${created.id}`, { token: account.admin.token, body: { short_code: taken.short_code } });
  t.deepEqual([clash.status, clash.body], [422, { message: "Short code has already been taken", attributes: ["short_code"] }]);
  const emptied = await h.request("PUT", `${crPath(account.id)}/${created.id}`, { token: account.admin.token, body: { content: "" } });
  t.deepEqual([emptied.status, emptied.body], [422, { message: "Content can't be blank", attributes: ["content"] }]);

  const other = await createAccount(h);
  const foreign = await h.request("DELETE", `${crPath(other.id)}/${created.id}`, { token: other.admin.token });
  t.deepEqual([foreign.status, foreign.body], [404, { error: "Resource could not be found" }]);
  const deleted = await h.request("DELETE", `${crPath(account.id)}/${created.id}`, { token: account.agent.token });
  t.is(deleted.status, 200);
  t.falsy(await h.knex("canned_responses").where({ id: created.id }).first());
  t.truthy(await h.knex("audit_logs").where({ auditable_type: "CannedResponse", auditable_id: created.id, action: "destroy" }).first());
  const gone = await h.request("PATCH", `${crPath(account.id)}/${created.id}`, { token: account.agent.token, body: { content: "x" } });
  t.is(gone.status, 404);
});

test("members of other accounts and callers without a token are refused", async (t) => {
  const account = await createAccount(h);
  const stranger = await createAccount(h);
  const response = await h.request("GET", crPath(account.id), { token: stranger.agent.token });
  t.deepEqual([response.status, response.body], [401, { error: "You are not authorized to access this account" }]);
  const none = await h.request("GET", crPath(account.id));
  t.is(none.status, 401);
});
