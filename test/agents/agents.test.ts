import test from "ava";
import { createAccount, createUser, addToAccount } from "../support/factories";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const agentsPath = (accountId: number) => `/api/v1/accounts/${accountId}/agents`;
const denied = { error: "You are not authorized to do this action" };

test("list renders every account user with the agent partial, by name, for administrators and agents", async (t) => {
  const account = await createAccount(h);
  const response = await h.request("GET", agentsPath(account.id), { token: account.agent.token });
  t.is(response.status, 200);
  t.deepEqual(
    response.body.map((a: { name: string }) => a.name),
    ["Admin Person", "Agent Person"],
  );
  t.deepEqual(response.body[1], {
    id: account.agent.id,
    account_id: account.id,
    // Not connected to /cable (docs/realtime.md): offline, though their availability setting is online.
    availability_status: "offline",
    auto_offline: true,
    confirmed: true,
    email: account.agent.email,
    provider: "email",
    available_name: "Agent Person",
    name: "Agent Person",
    role: "agent",
    thumbnail: "",
    custom_role_id: null,
  });
  const asAdmin = await expectOk(h.request("GET", agentsPath(account.id), { token: account.admin.token }), "admin list");
  t.deepEqual(asAdmin, response.body);
  const stranger = await createAccount(h);
  const other = await h.request("GET", agentsPath(account.id), { token: stranger.admin.token });
  t.deepEqual([other.status, other.body], [401, { error: "You are not authorized to access this account" }]);
});

test("an administrator invites a new agent by email: an unconfirmed user with a token joins with the role, audited", async (t) => {
  const account = await createAccount(h);
  const email = `invitee-${account.id}@example.com`;
  const response = await h.request("POST", agentsPath(account.id), {
    token: account.admin.token,
    body: { agent: { email: email.toUpperCase(), name: "Invited Person", role: "administrator", availability: "busy", auto_offline: false } },
  });
  t.is(response.status, 200);
  t.like(response.body, {
    account_id: account.id,
    email,
    name: "Invited Person",
    role: "administrator",
    availability_status: "busy",
    auto_offline: false,
    confirmed: false,
  });
  const user = await h.knex("users").where({ id: response.body.id }).first();
  t.is(user.confirmed_at, null);
  t.truthy(await h.knex("access_tokens").where({ owner_type: "User", owner_id: user.id }).first());
  const membership = await h.knex("account_users").where({ account_id: account.id, user_id: user.id }).first();
  t.is(Number(membership.inviter_id), account.admin.id);

  const audits = await h.knex("audit_logs").where({ account_id: account.id, auditable_type: "AccountUser", auditable_id: membership.id });
  t.is(audits.length, 1);
  t.like(audits[0], { action: "create", user_id: account.admin.id, username: account.admin.email });
  t.deepEqual(audits[0].audited_changes, {
    availability: "busy",
    role: "administrator",
    account_id: account.id,
    inviter_id: account.admin.id,
    user_id: user.id,
  });
});

test("inviting an existing user adds their membership; a member already there is 422; a bare body and defaults work", async (t) => {
  const account = await createAccount(h);
  const existing = await createUser(h, { name: "Known Person" });
  const response = await h.request("POST", agentsPath(account.id), { token: account.admin.token, body: { email: existing.email } });
  t.is(response.status, 200);
  t.like(response.body, { id: existing.id, name: "Known Person", role: "agent", confirmed: true });
  const again = await h.request("POST", agentsPath(account.id), { token: account.admin.token, body: { email: existing.email } });
  t.deepEqual([again.status, again.body], [422, { message: "User has already been taken", attributes: ["user_id"] }]);

  const unnamed = await expectOk(
    h.request("POST", agentsPath(account.id), { token: account.admin.token, body: { email: `no-name-${account.id}@example.com` } }),
    "no name",
  );
  t.is(unnamed.name, `no-name-${account.id}`, "the name defaults to the email's local part");
});

test("50 parallel invites of one new email create one user and one membership", async (t) => {
  const account = await createAccount(h);
  const email = `parallel-${account.id}@example.com`;
  const responses = await Promise.all(
    Array.from({ length: 50 }, () => h.request("POST", agentsPath(account.id), { token: account.admin.token, body: { email } })),
  );
  t.is(responses.filter((r) => r.status === 200).length, 1);
  t.true(
    responses.filter((r) => r.status !== 200).every((r) => r.status === 422 && r.body.message === "User has already been taken"),
    JSON.stringify(responses.map((r) => r.body)),
  );
  t.is((await h.knex("users").whereRaw("lower(email) = ?", [email])).length, 1);
  const user = await h.knex("users").whereRaw("lower(email) = ?", [email]).first();
  t.is((await h.knex("account_users").where({ account_id: account.id, user_id: user.id })).length, 1);
});

test("agent bots may not use the agents endpoints", async (t) => {
  const account = await createAccount(h);
  const bot = await expectOk(accountApi(h, account).post("/agent_bots", { name: "Bot" }), "bot");
  const response = await h.request("GET", agentsPath(account.id), { token: bot.access_token });
  t.deepEqual([response.status, response.body], [401, { error: "Access to this endpoint is not authorized for bots" }]);
});

test("invites are validated and limited, and only administrators invite", async (t) => {
  const account = await createAccount(h);
  const asAgent = await h.request("POST", agentsPath(account.id), { token: account.agent.token, body: { email: "x@example.com" } });
  t.deepEqual([asAgent.status, asAgent.body], [401, denied]);
  const noEmail = await h.request("POST", agentsPath(account.id), { token: account.admin.token, body: { name: "Nobody" } });
  t.deepEqual([noEmail.status, noEmail.body], [422, { message: "Email can't be blank", attributes: ["email"] }]);
  const badRole = await h.request("POST", agentsPath(account.id), { token: account.admin.token, body: { email: "r@example.com", role: "owner" } });
  t.deepEqual([badRole.status, badRole.body], [422, { message: "Role is not included in the list", attributes: ["role"] }]);

  await expectOk(h.request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { limits: { agents: 2 } } }), "set limit");
  const limited = await h.request("POST", agentsPath(account.id), { token: account.admin.token, body: { email: `limited-${account.id}@example.com` } });
  t.deepEqual([limited.status, limited.body], [402, { error: "Account limit exceeded. Please purchase more licenses" }]);
  t.falsy(
    await h
      .knex("users")
      .where({ email: `limited-${account.id}@example.com` })
      .first(),
    "no user is left behind",
  );
});

test("update changes the role, availability and auto_offline, audited as a diff; agents cannot", async (t) => {
  const account = await createAccount(h);
  const path = `${agentsPath(account.id)}/${account.agent.id}`;
  const asAgent = await h.request("PATCH", path, { token: account.agent.token, body: { role: "administrator" } });
  t.deepEqual([asAgent.status, asAgent.body], [401, denied]);

  const response = await h.request("PATCH", path, {
    token: account.admin.token,
    // The name comes back as it is (dashboards send it): only the user changes it (test/agents/invitations.test.ts).
    body: { agent: { name: "Agent Person", role: "administrator", availability: "offline", auto_offline: false } },
  });
  t.is(response.status, 200);
  t.like(response.body, { id: account.agent.id, name: "Agent Person", role: "administrator", availability_status: "offline", auto_offline: false });
  const membership = await h.knex("account_users").where({ account_id: account.id, user_id: account.agent.id }).first();
  const audit = await h.knex("audit_logs").where({ auditable_type: "AccountUser", auditable_id: membership.id, action: "update" }).first();
  t.deepEqual(audit.audited_changes, { availability: ["online", "offline"], role: ["agent", "administrator"] });

  const put = await h.request("PUT", path, { token: account.admin.token, body: { role: "agent" } });
  t.is(put.body.role, "agent");
  const badAvailability = await h.request("PATCH", path, { token: account.admin.token, body: { availability: "away" } });
  t.deepEqual([badAvailability.status, badAvailability.body.attributes], [422, ["availability"]]);
  const unknown = await h.request("PATCH", `${agentsPath(account.id)}/999999999`, { token: account.admin.token, body: { role: "agent" } });
  t.deepEqual([unknown.status, unknown.body], [404, { error: "Resource could not be found" }]);
  const stranger = await createAccount(h);
  const notHere = await h.request("PATCH", `${agentsPath(account.id)}/${stranger.agent.id}`, { token: account.admin.token, body: { name: "X" } });
  t.is(notHere.status, 404, "a user of another account is not an agent here");
});

test("the last administrator can be neither demoted nor removed", async (t) => {
  const account = await createAccount(h);
  const self = `${agentsPath(account.id)}/${account.admin.id}`;
  const demote = await h.request("PATCH", self, { token: account.admin.token, body: { role: "agent" } });
  t.deepEqual([demote.status, demote.body], [422, { error: "The account must have at least one administrator" }]);
  const remove = await h.request("DELETE", self, { token: account.admin.token });
  t.deepEqual([remove.status, remove.body], [422, { error: "The account must have at least one administrator" }]);
  t.is((await h.knex("account_users").where({ account_id: account.id, user_id: account.admin.id }).first()).role, "administrator");

  // With a second administrator, one of them may go.
  await expectOk(
    h.request("PATCH", `${agentsPath(account.id)}/${account.agent.id}`, { token: account.admin.token, body: { role: "administrator" } }),
    "promote",
  );
  t.is((await h.request("PATCH", self, { token: account.admin.token, body: { role: "agent" } })).status, 200);
});

test("50 parallel demotions and removals of administrators always leave one", async (t) => {
  const account = await createAccount(h);
  const extra = [];
  for (let i = 0; i < 4; i++) {
    const user = await createUser(h);
    await addToAccount(h, account.id, user.id, "administrator");
    extra.push(user);
  }
  const admins = [account.admin, ...extra];
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => {
      const target = admins[i % admins.length]!;
      const actor = admins[(i + 1) % admins.length]!;
      const path = `${agentsPath(account.id)}/${target.id}`;
      return i % 2 ? h.request("DELETE", path, { token: actor.token }) : h.request("PATCH", path, { token: actor.token, body: { role: "agent" } });
    }),
  );
  t.true(
    responses.every((r) => [200, 401, 404, 422].includes(r.status)),
    JSON.stringify(responses.map((r) => r.status)),
  );
  const remaining = await h.knex("account_users").where({ account_id: account.id, role: "administrator" });
  t.is(remaining.length, 1);
});

test("delete removes the membership, its inbox and team memberships and assignments, never the user", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const { contact, sourceId } = await createContact(h, account, { inbox_id: inbox.id });
  const conversation = await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/conversations`, {
      token: account.admin.token,
      body: { source_id: sourceId, inbox_id: inbox.id, contact_id: contact.id, assignee_id: account.agent.id },
    }),
    "conversation",
  );
  t.is(Number((await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first()).assignee_id), account.agent.id);
  const team = await expectOk(accountApi(h, account).post("/teams", { name: "Support" }), "team");
  await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/teams/${team.id}/team_members`, {
      token: account.admin.token,
      body: { user_ids: [account.agent.id, account.admin.id] },
    }),
    "team member",
  );
  const asAgent = await h.request("DELETE", `${agentsPath(account.id)}/${account.admin.id}`, { token: account.agent.token });
  t.deepEqual([asAgent.status, asAgent.body], [401, denied]);

  const response = await h.request("DELETE", `${agentsPath(account.id)}/${account.agent.id}`, { token: account.admin.token });
  t.is(response.status, 200);
  t.falsy(response.body);
  t.is(
    (await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first()).assignee_id,
    null,
    "their conversations are unassigned",
  );
  t.falsy(await h.knex("account_users").where({ account_id: account.id, user_id: account.agent.id }).first());
  t.falsy(await h.knex("inbox_members").where({ user_id: account.agent.id }).first());
  t.truthy(await h.knex("users").where({ id: account.agent.id }).first(), "a user left in no account is kept");
  const profile = await h.request("GET", "/api/v1/profile", { token: account.agent.token });
  t.deepEqual([profile.status, profile.body.accounts], [200, []]);
  t.is((await h.request("GET", `/api/v1/accounts/${account.id}`, { token: account.agent.token })).status, 404, "but no longer in the account");

  // A user who still belongs elsewhere keeps their user record.
  const other = await createAccount(h);
  await addToAccount(h, other.id, account.admin.id, "agent");
  const second = await createUser(h);
  await addToAccount(h, account.id, second.id, "administrator");
  t.is((await h.request("DELETE", `${agentsPath(account.id)}/${account.admin.id}`, { token: second.token })).status, 200);
  t.truthy(await h.knex("users").where({ id: account.admin.id }).first());
  t.falsy(await h.knex("team_members").where({ user_id: account.admin.id }).first(), "a user who stays elsewhere still leaves the account's teams");
  const gone = await h.request("DELETE", `${agentsPath(account.id)}/${account.admin.id}`, { token: second.token });
  t.is(gone.status, 404);
});
