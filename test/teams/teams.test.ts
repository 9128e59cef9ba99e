import test from "ava";
import { addToAccount, createAccount, createUser, type TestAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

const teams = (account: TestAccount) => `/api/v1/accounts/${account.id}/teams`;
const members = (account: TestAccount, teamId: number) => `${teams(account)}/${teamId}/team_members`;
const NOT_AUTHORIZED = { error: "You are not authorized to do this action" };
const NOT_FOUND = { error: "Resource could not be found" };

async function createTeam(account: TestAccount, body: Record<string, unknown>) {
  const response = await h.request("POST", teams(account), { token: account.admin.token, body });
  if (response.status !== 200) throw new Error(`create team: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function count(query: PromiseLike<unknown> & { count: (c: string) => PromiseLike<{ n: string | number }[]> }) {
  return Number((await query.count("* as n"))[0]!.n);
}

const auditRows = (account: TestAccount, type: string) =>
  h
    .knex("audit_logs")
    .where({ account_id: account.id, auditable_type: type })
    .orderBy("id")
    .select("auditable_id", "action", "audited_changes", "associated_type", "associated_id", "username");

test("administrators create, show, list, update and delete teams in Chatwoot's shape", async (t) => {
  const account = await createAccount(h);
  const created = await h.request("POST", teams(account), {
    token: account.admin.token,
    body: { team: { name: "Billing Desk", description: "Money", allow_auto_assign: false } },
  });
  t.is(created.status, 200);
  const team = created.body;
  t.deepEqual(team, { id: team.id, name: "billing desk", description: "Money", allow_auto_assign: false, account_id: account.id, is_member: false });

  // The bare body (Rails' params wrapper) works too, and allow_auto_assign defaults to true.
  const second = await createTeam(account, { name: "Sales" });
  t.like(second, { name: "sales", description: null, allow_auto_assign: true });

  for (const token of [account.admin.token, account.agent.token]) {
    t.deepEqual(await h.request("GET", teams(account), { token }).then((r) => [r.status, r.body]), [200, [team, second]]);
    t.deepEqual(await h.request("GET", `${teams(account)}/${team.id}`, { token }).then((r) => [r.status, r.body]), [200, team]);
  }

  const updated = await h.request("PATCH", `${teams(account)}/${team.id}`, {
    token: account.admin.token,
    body: { team: { name: "Billing", allow_auto_assign: "true" } },
  });
  t.deepEqual([updated.status, updated.body], [200, { ...team, name: "billing", allow_auto_assign: true }]);
  const put = await h.request("PUT", `${teams(account)}/${team.id}`, { token: account.admin.token, body: { description: null } });
  t.deepEqual(put.body, { ...updated.body, description: null });

  const deleted = await h.request("DELETE", `${teams(account)}/${team.id}`, { token: account.admin.token });
  t.deepEqual([deleted.status, deleted.body], [200, undefined]);
  t.deepEqual(await h.request("GET", `${teams(account)}/${team.id}`, { token: account.admin.token }).then((r) => [r.status, r.body]), [404, NOT_FOUND]);
  t.deepEqual((await h.request("GET", teams(account), { token: account.admin.token })).body, [second]);

  // Audited as the audited gem writes Team, associated with the account.
  const audits = await auditRows(account, "Team");
  t.deepEqual(
    audits.map((row) => [row.auditable_id, row.action, row.audited_changes, row.associated_type, Number(row.associated_id)]),
    [
      [team.id, "create", { name: "billing desk", description: "Money", allow_auto_assign: false, account_id: account.id }, "Account", account.id],
      [second.id, "create", { name: "sales", description: null, allow_auto_assign: true, account_id: account.id }, "Account", account.id],
      [team.id, "update", { name: ["billing desk", "billing"], allow_auto_assign: [false, true] }, "Account", account.id],
      [team.id, "update", { description: ["Money", null] }, "Account", account.id],
      [team.id, "destroy", { name: "billing", description: null, allow_auto_assign: true, account_id: account.id }, "Account", account.id],
    ],
  );
  t.true(audits.every((row) => row.username === account.admin.email));

  // The audit log endpoint shows them, with the team that still exists as its push data.
  const logs = await accountApi(h, account).get("/audit_logs");
  t.is(logs.status, 200);
  const teamLogs = logs.body.audit_logs.filter((entry: { auditable_type: string }) => entry.auditable_type === "Team");
  t.is(teamLogs.length, 5);
  t.deepEqual(teamLogs.find((entry: { auditable_id: number }) => entry.auditable_id === second.id).auditable, { id: second.id, name: "sales" });
  t.is(teamLogs.find((entry: { auditable_id: number }) => entry.auditable_id === team.id).auditable, null);
});

test("names are required and unique per account whatever their case", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const team = await createTeam(account, { name: "Support" });
  await createTeam(other, { name: "support" });

  for (const name of ["SUPPORT", "support"]) {
    const duplicate = await h.request("POST", teams(account), { token: account.admin.token, body: { name } });
    t.deepEqual([duplicate.status, duplicate.body], [422, { message: "Name has already been taken", attributes: ["name"] }]);
  }
  for (const body of [{}, { name: "" }, { name: "   " }, { name: null }]) {
    const blank = await h.request("POST", teams(account), { token: account.admin.token, body });
    t.deepEqual([blank.status, blank.body], [422, { message: "Name must not be blank", attributes: ["name"] }], JSON.stringify(body));
  }
  const renamed = await createTeam(account, { name: "Sales" });
  const clash = await h.request("PATCH", `${teams(account)}/${renamed.id}`, { token: account.admin.token, body: { name: "SupPort" } });
  t.deepEqual([clash.status, clash.body], [422, { message: "Name has already been taken", attributes: ["name"] }]);
  const cleared = await h.request("PATCH", `${teams(account)}/${team.id}`, { token: account.admin.token, body: { name: null } });
  t.deepEqual([cleared.status, cleared.body], [422, { message: "Name must not be blank", attributes: ["name"] }]);
  const wrongType = await h.request("POST", teams(account), { token: account.admin.token, body: { name: "x", allow_auto_assign: "maybe" } });
  t.is(wrongType.status, 422);

  // Ten racing creations of one name leave one team.
  const racing = await Promise.all(
    Array.from({ length: 10 }, () => h.request("POST", teams(account), { token: account.admin.token, body: { name: "Racing" } })),
  );
  t.deepEqual(racing.map((r) => r.status).sort(), [200, ...Array(9).fill(422)]);
  t.is(await count(h.knex("teams").where({ account_id: account.id, name: "racing" })), 1);
});

test("agents read teams and members but cannot change them; other accounts' teams are not found", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const team = await createTeam(account, { name: "Support" });
  const agent = account.agent.token;

  for (const [method, path, body] of [
    ["POST", teams(account), { name: "Mine" }],
    ["PATCH", `${teams(account)}/${team.id}`, { name: "Mine" }],
    ["DELETE", `${teams(account)}/${team.id}`, undefined],
    ["POST", members(account, team.id), { user_ids: [account.agent.id] }],
    ["PATCH", members(account, team.id), { user_ids: [account.agent.id] }],
    ["DELETE", members(account, team.id), { user_ids: [account.agent.id] }],
  ] as const) {
    const response = await h.request(method, path, { token: agent, body });
    t.deepEqual([response.status, response.body], [401, NOT_AUTHORIZED], `${method} ${path}`);
  }
  t.is((await h.request("GET", members(account, team.id), { token: agent })).status, 200);
  t.like((await h.request("GET", `${teams(account)}/${team.id}`, { token: agent })).body, { name: "support" });

  // The team is looked up before the role check, so an unknown one is 404 for anyone.
  for (const token of [agent, account.admin.token]) {
    t.deepEqual(await h.request("PATCH", `${teams(account)}/999999999`, { token, body: { name: "x" } }).then((r) => [r.status, r.body]), [404, NOT_FOUND]);
    t.deepEqual(await h.request("POST", members(account, 999999999), { token, body: { user_ids: [] } }).then((r) => [r.status, r.body]), [404, NOT_FOUND]);
  }
  t.is((await h.request("GET", `${teams(other)}/${team.id}`, { token: other.admin.token })).status, 404);
  t.is((await h.request("GET", members(other, team.id), { token: other.admin.token })).status, 404);
  t.is((await h.request("DELETE", `${teams(other)}/${team.id}`, { token: other.admin.token })).status, 404);
  t.is((await h.request("GET", teams(account), { token: other.admin.token })).status, 401);
  t.is((await h.request("GET", teams(account))).status, 401);
});

test("members are added, listed, replaced and removed, each change audited", async (t) => {
  const account = await createAccount(h);
  const team = await createTeam(account, { name: "Support" });
  const path = members(account, team.id);
  const admin = account.admin.token;

  const added = await h.request("POST", path, { token: admin, body: { user_ids: [account.agent.id, account.admin.id] } });
  t.is(added.status, 200);
  t.deepEqual(
    added.body.map((a: { id: number }) => a.id),
    [account.agent.id, account.admin.id],
  );
  t.deepEqual(Object.keys(added.body[0]), [
    "id",
    "account_id",
    "availability_status",
    "auto_offline",
    "confirmed",
    "email",
    "provider",
    "available_name",
    "name",
    "role",
    "thumbnail",
    "custom_role_id",
  ]);
  t.like(added.body[0], { id: account.agent.id, account_id: account.id, role: "agent", email: account.agent.email, name: "Agent Person" });

  // Adding members again adds nothing, and Chatwoot's view of nothing is an empty object.
  const again = await h.request("POST", path, { token: admin, body: { user_ids: [account.agent.id] } });
  t.deepEqual([again.status, again.body], [200, {}]);

  const list = await h.request("GET", path, { token: account.agent.token });
  t.deepEqual(
    list.body.map((a: { id: number }) => a.id),
    [account.agent.id, account.admin.id],
  );

  // Team membership shows in is_member for the caller.
  t.true((await h.request("GET", `${teams(account)}/${team.id}`, { token: account.agent.token })).body.is_member);

  const third = await createUser(h, { name: "Third Person" });
  await addToAccount(h, account.id, third.id, "agent");
  const replaced = await h.request("PATCH", path, { token: admin, body: { user_ids: [third.id, account.admin.id] } });
  t.is(replaced.status, 200);
  t.deepEqual(
    replaced.body.map((a: { id: number }) => a.id),
    [account.admin.id, third.id],
  );
  t.false((await h.request("GET", `${teams(account)}/${team.id}`, { token: account.agent.token })).body.is_member);

  const removed = await h.request("DELETE", path, { token: admin, body: { user_ids: [third.id] } });
  t.deepEqual([removed.status, removed.body], [200, undefined]);
  t.deepEqual(
    (await h.request("GET", path, { token: admin })).body.map((a: { id: number }) => a.id),
    [account.admin.id],
  );
  const emptied = await h.request("PATCH", path, { token: admin, body: { user_ids: [] } });
  t.deepEqual([emptied.status, emptied.body], [200, {}]);

  const audits = await auditRows(account, "TeamMember");
  t.deepEqual(
    audits.map((row) => [row.action, row.audited_changes.user_id, row.audited_changes.team_id, row.associated_type, Number(row.associated_id)]),
    [
      ["create", account.agent.id, team.id, "Account", account.id],
      ["create", account.admin.id, team.id, "Account", account.id],
      ["create", third.id, team.id, "Account", account.id],
      ["destroy", account.agent.id, team.id, "Account", account.id],
      ["destroy", third.id, team.id, "Account", account.id],
      ["destroy", account.admin.id, team.id, "Account", account.id],
    ],
  );
  t.true(audits.every((row) => Object.keys(row.audited_changes).sort().join() === "id,team_id,user_id"));
});

test("only users of the account can be members: 401 Invalid User IDs", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const team = await createTeam(account, { name: "Support" });
  for (const method of ["POST", "PATCH", "DELETE"]) {
    for (const ids of [[other.agent.id], [account.agent.id, 999999999]]) {
      const response = await h.request(method, members(account, team.id), { token: account.admin.token, body: { user_ids: ids } });
      t.deepEqual([response.status, response.body], [401, { error: "Invalid User IDs" }], `${method} ${ids}`);
    }
  }
  t.is(await count(h.knex("team_members").where("team_id", team.id)), 0);
  const bad = await h.request("POST", members(account, team.id), { token: account.admin.token, body: { user_ids: "all" } });
  t.is(bad.status, 422);
});

test("50 parallel additions of the same members leave one row each", async (t) => {
  const account = await createAccount(h);
  const team = await createTeam(account, { name: "Support" });
  const ids = [account.agent.id, account.admin.id];
  const responses = await Promise.all(
    Array.from({ length: 50 }, () => h.request("POST", members(account, team.id), { token: account.admin.token, body: { user_ids: ids } })),
  );
  t.true(responses.every((r) => r.status === 200));
  // Each member is reported added by exactly one request.
  const reported = responses.flatMap((r) => (Array.isArray(r.body) ? r.body.map((a: { id: number }) => a.id) : []));
  t.deepEqual(reported.sort(), [...ids].sort());
  const rows = await h.knex("team_members").where("team_id", team.id).select("user_id");
  t.deepEqual(rows.map((r) => r.user_id).sort(), [...ids].sort());
  t.is((await auditRows(account, "TeamMember")).length, 2);
});

test("deleting a team removes its members and takes it off its conversations", async (t) => {
  const account = await createAccount(h);
  const team = await createTeam(account, { name: "Support" });
  await h.request("POST", members(account, team.id), { token: account.admin.token, body: { user_ids: [account.agent.id] } });
  const deleted = await h.request("DELETE", `${teams(account)}/${team.id}`, { token: account.admin.token });
  t.is(deleted.status, 200);
  t.is(await count(h.knex("team_members").where("team_id", team.id)), 0);
  const audits = await auditRows(account, "TeamMember");
  t.deepEqual(
    audits.map((row) => row.action),
    ["create", "destroy"],
  );
});

test("a user removed from the account leaves its teams", async (t) => {
  const account = await createAccount(h);
  const team = await createTeam(account, { name: "Support" });
  await h.request("POST", members(account, team.id), { token: account.admin.token, body: { user_ids: [account.agent.id, account.admin.id] } });
  const removed = await h.request("DELETE", `/platform/api/v1/accounts/${account.id}/account_users`, {
    token: h.platformToken,
    body: { user_id: account.agent.id },
  });
  t.is(removed.status, 200);
  t.deepEqual(
    (await h.request("GET", members(account, team.id), { token: account.admin.token })).body.map((a: { id: number }) => a.id),
    [account.admin.id],
  );
  t.is(await count(h.knex("team_members").where({ team_id: team.id, user_id: account.agent.id })), 0);
  t.deepEqual(
    (await auditRows(account, "TeamMember")).map((row) => [row.action, row.audited_changes.user_id]),
    [
      ["create", account.agent.id],
      ["create", account.admin.id],
      ["destroy", account.agent.id],
    ],
  );

  // Removing an agent through the agents API does the same.
  const third = await createUser(h, { name: "Third Person" });
  await addToAccount(h, account.id, third.id, "agent");
  await h.request("POST", members(account, team.id), { token: account.admin.token, body: { user_ids: [third.id] } });
  t.is((await accountApi(h, account).delete(`/agents/${third.id}`)).status, 200);
  t.deepEqual(
    (await h.request("GET", members(account, team.id), { token: account.admin.token })).body.map((a: { id: number }) => a.id),
    [account.admin.id],
  );
});
