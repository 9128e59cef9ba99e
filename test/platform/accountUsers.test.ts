import test from "ava";
import { createInbox, setInboxMembers } from "../support/conversationFactories";
import { createAccount, createUser } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

async function newAccount(): Promise<number> {
  return (await h.request("POST", "/platform/api/v1/accounts", { token: h.platformToken, body: { name: "Team" } })).body.id;
}
const path = (accountId: number) => `/platform/api/v1/accounts/${accountId}/account_users`;

test("create adds a user with a role and answers the account_user record; list shows it", async (t) => {
  const accountId = await newAccount();
  const user = await createUser(h);
  const created = await h.request("POST", path(accountId), { token: h.platformToken, body: { user_id: user.id, role: "administrator" } });
  t.is(created.status, 200);
  const { id, created_at, updated_at, ...rest } = created.body;
  t.is(typeof id, "number");
  t.regex(created_at, /^\d{4}-\d\d-\d\dT/);
  t.regex(updated_at, /^\d{4}-\d\d-\d\dT/);
  t.deepEqual(rest, {
    account_id: accountId,
    user_id: user.id,
    role: "administrator",
    inviter_id: null,
    active_at: null,
    availability: "online",
    auto_offline: true,
  });

  const listed = await h.request("GET", path(accountId), { token: h.platformToken });
  t.is(listed.status, 200);
  t.deepEqual(listed.body, [created.body]);

  const audits = await h.knex("audit_logs").where({ auditable_type: "AccountUser", auditable_id: id });
  t.is(audits.length, 1);
  t.is(audits[0].action, "create");
  t.is(audits[0].account_id, accountId);
  t.deepEqual(audits[0].audited_changes, { availability: "online", role: "administrator", account_id: accountId, inviter_id: null, user_id: user.id });
});

test("role defaults to agent; posting again changes the role, and without a role keeps it", async (t) => {
  const accountId = await newAccount();
  const user = await createUser(h);
  const first = await h.request("POST", path(accountId), { token: h.platformToken, body: { user_id: user.id } });
  t.is(first.body.role, "agent");
  const promoted = await h.request("POST", path(accountId), { token: h.platformToken, body: { user_id: user.id, role: "administrator" } });
  t.is(promoted.status, 200);
  t.is(promoted.body.id, first.body.id);
  t.is(promoted.body.role, "administrator");
  const again = await h.request("POST", path(accountId), { token: h.platformToken, body: { user_id: user.id } });
  t.is(again.body.role, "administrator");
  t.is((await h.knex("account_users").where({ account_id: accountId })).length, 1);

  const audits = await h.knex("audit_logs").where({ auditable_type: "AccountUser", auditable_id: first.body.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => a.action),
    ["create", "update"],
  );
  t.deepEqual(audits[1].audited_changes, { role: ["agent", "administrator"] });
  t.is(audits[1].version, 2);
});

test("delete removes the membership (and the user's access to the account), audited; unknown users are ignored", async (t) => {
  const accountId = await newAccount();
  const user = await createUser(h);
  const { body: accountUser } = await h.request("POST", path(accountId), { token: h.platformToken, body: { user_id: user.id, role: "agent" } });
  t.is((await h.request("GET", `/api/v1/accounts/${accountId}`, { token: user.token })).status, 200);

  const deleted = await h.request("DELETE", path(accountId), { token: h.platformToken, body: { user_id: user.id } });
  t.is(deleted.status, 200);
  t.deepEqual((await h.request("GET", path(accountId), { token: h.platformToken })).body, []);
  t.is((await h.request("GET", `/api/v1/accounts/${accountId}`, { token: user.token })).status, 404);
  const audits = await h.knex("audit_logs").where({ auditable_type: "AccountUser", auditable_id: accountUser.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => a.action),
    ["create", "destroy"],
  );
  t.deepEqual(audits[1].audited_changes, { availability: "online", role: "agent", account_id: accountId, inviter_id: null, user_id: user.id });

  t.is((await h.request("DELETE", path(accountId), { token: h.platformToken, body: { user_id: 999999999 } })).status, 200);
});

test("a user removed from the account also leaves its inboxes", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  await setInboxMembers(h, account, inbox.id, [account.agent.id, account.admin.id]);
  const deleted = await h.request("DELETE", path(account.id), { token: h.platformToken, body: { user_id: account.agent.id } });
  t.is(deleted.status, 200);
  t.deepEqual(await h.knex("inbox_members").where({ inbox_id: inbox.id }).pluck("user_id"), [account.admin.id]);
});

test("bad input is a 4xx in Chatwoot's shape and writes nothing", async (t) => {
  const accountId = await newAccount();
  const user = await createUser(h);
  const cases: [unknown, number, unknown][] = [
    [{ user_id: 999999999 }, 422, { message: "User must exist", attributes: ["user"] }],
    [{ user_id: user.id, role: "owner" }, 422, { message: "Role is not included in the list", attributes: ["role"] }],
    [{}, 422, { message: "User can't be blank", attributes: ["user_id"] }],
    [{ user_id: "abc" }, 422, { message: "User must be of type number", attributes: ["user_id"] }],
  ];
  for (const [body, status, expected] of cases) {
    const response = await h.request("POST", path(accountId), { token: h.platformToken, body });
    t.is(response.status, status, JSON.stringify(body));
    t.deepEqual(response.body, expected, JSON.stringify(body));
  }
  t.deepEqual(await h.knex("account_users").where({ account_id: accountId }), []);
  t.deepEqual(await h.knex("audit_logs").where({ account_id: accountId }), []);

  for (const method of ["GET", "POST", "DELETE"]) {
    const response = await h.request(method, path(999999999), { token: h.platformToken, body: method === "GET" ? undefined : { user_id: user.id } });
    t.is(response.status, 404, method);
    t.deepEqual(response.body, { error: "Resource could not be found" });
  }
});

test("concurrent requests adding the same user all succeed with one membership and one audit row", async (t) => {
  const accountId = await newAccount();
  const user = await createUser(h);
  const responses = await Promise.all(
    Array.from({ length: 6 }, () => h.request("POST", path(accountId), { token: h.platformToken, body: { user_id: user.id } })),
  );
  t.deepEqual(
    responses.map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
  );
  const rows = await h.knex("account_users").where({ account_id: accountId });
  t.is(rows.length, 1);
  t.true(responses.every((r) => r.body.id === rows[0].id));
  t.deepEqual(
    (await h.knex("audit_logs").where({ auditable_type: "AccountUser", auditable_id: rows[0].id })).map((a) => a.action),
    ["create"],
  );
});
