import test from "ava";
import { addToAccount, createAccount, createUser } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const denied = { error: "You are not authorized to do this action" };
const limitBody = { error: "Account limit exceeded. Please purchase more licenses" };

async function membersOf(accountId: number) {
  const rows: { email: string; role: string; confirmed_at: Date | null; name: string; inviter_id: string }[] = await h
    .knex("account_users")
    .join("users", "users.id", "account_users.user_id")
    .where("account_users.account_id", accountId)
    .select("users.email", "users.name", "users.confirmed_at", "account_users.role", "account_users.inviter_id")
    .orderBy("users.email");
  return rows;
}

const setAgentLimit = (accountId: number, agents: number | string) =>
  expectOk(h.request("PATCH", `/platform/api/v1/accounts/${accountId}`, { token: h.platformToken, body: { limits: { agents } } }), "set limit");

test("bulk_create adds each new address as an unconfirmed agent named after it, skips members, and answers 200 empty", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const a = `bulk-a-${account.id}@example.com`;
  const b = `bulk-b-${account.id}@example.com`;
  const response = await api.post("/agents/bulk_create", { emails: [a, b.toUpperCase(), account.agent.email, a] });
  t.deepEqual([response.status, response.body], [200, undefined]);

  const members = await membersOf(account.id);
  t.is(members.length, 4, "admin, agent and the two new ones");
  const added = members.filter((m) => [a, b].includes(m.email));
  t.deepEqual(
    added.map((m) => [m.email, m.name, m.role, m.confirmed_at, Number(m.inviter_id)]),
    [
      [a, `bulk-a-${account.id}`, "agent", null, account.admin.id],
      [b, `bulk-b-${account.id}`, "agent", null, account.admin.id],
    ],
  );
  // The new agents are listed as agents#index lists them.
  const listed = await expectOk(api.get("/agents"), "list");
  t.like(
    listed.find((agent: { email: string }) => agent.email === a),
    { role: "agent", confirmed: false, name: `bulk-a-${account.id}`, account_id: account.id },
  );
  // Each is audited as its own membership's creation, as agents#create audits one.
  t.is((await h.knex("audit_logs").where({ account_id: account.id, auditable_type: "AccountUser", action: "create", user_id: account.admin.id })).length, 2);

  const again = await api.post("/agents/bulk_create", { emails: [a, b] });
  t.deepEqual([again.status, again.body], [200, undefined], "sending the same list again is no error");
  t.is((await membersOf(account.id)).length, 4);
});

test("bulk_create invites a user of another account instead of adding them, and adds a user in no account", async (t) => {
  const account = await createAccount(h);
  const elsewhere = await createAccount(h);
  const loner = await createUser(h, { name: "Loner" });
  const response = await accountApi(h, account).post("/agents/bulk_create", { emails: [elsewhere.agent.email, loner.email] });
  t.is(response.status, 200);
  const emails = (await membersOf(account.id)).map((m) => m.email);
  t.true(emails.includes(loner.email));
  t.false(emails.includes(elsewhere.agent.email), "no account takes in another's user without their consent");
  const invitation = await h.knex("agent_invitations").where({ account_id: account.id, user_id: elsewhere.agent.id }).first();
  t.like(invitation, { role: "agent" });
  const pending = await expectOk(h.request("GET", "/api/v1/profile/invitations", { token: elsewhere.agent.token }), "invitations");
  t.is(pending.payload.length, 1);
});

test("bulk_create: only administrators; bots and other accounts are refused", async (t) => {
  const account = await createAccount(h);
  const email = `refused-${account.id}@example.com`;
  const asAgent = await h.request("POST", `/api/v1/accounts/${account.id}/agents/bulk_create`, { token: account.agent.token, body: { emails: [email] } });
  t.deepEqual([asAgent.status, asAgent.body], [401, denied]);
  const stranger = await createAccount(h);
  const asStranger = await h.request("POST", `/api/v1/accounts/${account.id}/agents/bulk_create`, { token: stranger.admin.token, body: { emails: [email] } });
  t.deepEqual([asStranger.status, asStranger.body], [401, { error: "You are not authorized to access this account" }]);
  const bot = await expectOk(accountApi(h, account).post("/agent_bots", { name: "Bot" }), "bot");
  const asBot = await h.request("POST", `/api/v1/accounts/${account.id}/agents/bulk_create`, { token: bot.access_token, body: { emails: [email] } });
  t.deepEqual([asBot.status, asBot.body], [401, { error: "Access to this endpoint is not authorized for bots" }]);
  t.falsy(await h.knex("users").where({ email }).first(), "nobody was created");
});

test("bulk_create reads a comma-separated string and drops blanks; a malformed address or list is 422 and adds nobody", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const a = `csv-a-${account.id}@example.com`;
  const b = `csv-b-${account.id}@example.com`;
  t.is((await api.post("/agents/bulk_create", { emails: ` ${a}, ,${b} ` })).status, 200);
  t.is((await api.post("/agents/bulk_create", { agent: { emails: ["", null] } })).status, 200, "wrapped under agent, nothing to do");
  t.deepEqual(
    (await membersOf(account.id)).map((m) => m.email).filter((e) => e.startsWith("csv-")),
    [a, b],
  );

  const c = `csv-c-${account.id}@example.com`;
  const malformed = await api.post("/agents/bulk_create", { emails: [c, "not an address"] });
  t.deepEqual([malformed.status, malformed.body], [422, { message: "Emails is invalid", attributes: ["emails"] }]);
  const missing = await api.post("/agents/bulk_create", {});
  t.deepEqual([missing.status, missing.body], [422, { message: "Emails can't be blank", attributes: ["emails"] }]);
  const numbers = await api.post("/agents/bulk_create", { emails: [42] });
  t.is(numbers.status, 422);
  const object = await api.post("/agents/bulk_create", { emails: { 0: c } });
  t.is(object.status, 422);
  const tooMany = await api.post("/agents/bulk_create", { emails: Array.from({ length: 1001 }, (_, i) => `many-${i}@example.com`) });
  t.deepEqual([tooMany.status, tooMany.body.attributes], [422, ["emails"]]);
  t.falsy(await h.knex("users").where({ email: c }).first(), "nobody was created");
});

test("bulk_create respects the account's agent limit: 402 up front when the newcomers do not fit, members not counted", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  await setAgentLimit(account.id, 4);
  const emails = [1, 2, 3].map((i) => `limit-${i}-${account.id}@example.com`);
  const over = await api.post("/agents/bulk_create", { emails });
  t.deepEqual([over.status, over.body], [402, limitBody]);
  t.is((await membersOf(account.id)).length, 2, "nobody added");
  t.falsy(await h.knex("users").whereIn("email", emails).first());

  // Two newcomers fit beside the two members; the members named again do not count.
  const fits = await api.post("/agents/bulk_create", { emails: [emails[0], emails[1], account.admin.email, account.agent.email] });
  t.is(fits.status, 200);
  t.is((await membersOf(account.id)).length, 4);
  const full = await api.post("/agents/bulk_create", { emails: [emails[2]] });
  t.deepEqual([full.status, full.body], [402, limitBody]);
  const onlyMembers = await api.post("/agents/bulk_create", { emails: [emails[0], emails[1]] });
  t.is(onlyMembers.status, 200, "a full account may be sent its own members");
});

test("50 parallel bulk_creates with overlapping addresses make each user and membership once", async (t) => {
  const account = await createAccount(h);
  const emails = Array.from({ length: 12 }, (_, i) => `overlap-${i}-${account.id}@example.com`);
  // Each request sends a window of six addresses, so every address is in many requests at once.
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => accountApi(h, account).post("/agents/bulk_create", { emails: [0, 1, 2, 3, 4, 5].map((k) => emails[(i + k) % 12]) })),
  );
  t.deepEqual(
    responses.map((r) => r.status),
    Array(50).fill(200),
    JSON.stringify(responses.filter((r) => r.status !== 200).map((r) => r.body)),
  );
  const users = await h.knex("users").whereIn("email", emails).select("id", "email");
  t.is(users.length, 12, "one user per address");
  const memberships = await h
    .knex("account_users")
    .where("account_id", account.id)
    .whereIn(
      "user_id",
      users.map((u) => u.id),
    );
  t.is(memberships.length, 12, "one membership per user");
  t.is(
    (
      await h
        .knex("access_tokens")
        .where("owner_type", "User")
        .whereIn(
          "owner_id",
          users.map((u) => u.id),
        )
    ).length,
    12,
  );
});

test("50 parallel bulk_creates never take the account past its agent limit", async (t) => {
  const account = await createAccount(h);
  await setAgentLimit(account.id, 7);
  // Each request alone fits (two newcomers beside the two members); together they would not.
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      accountApi(h, account).post("/agents/bulk_create", { emails: [`race-${i}-a-${account.id}@example.com`, `race-${i}-b-${account.id}@example.com`] }),
    ),
  );
  t.true(responses.every((r) => r.status === 200 || (r.status === 402 && r.body.error === limitBody.error)));
  t.true(responses.some((r) => r.status === 402));
  t.is((await membersOf(account.id)).length, 7, "filled to the limit, not past it");
  // A refused join leaves no user behind (the user and the membership commit together).
  const created = await h.knex("users").where("email", "like", `race-%-${account.id}@example.com`);
  t.is(created.length, 5);
});

test("a later member added by the platform is skipped by bulk_create, not failed", async (t) => {
  const account = await createAccount(h);
  const user = await createUser(h, { name: "Platform Added" });
  await addToAccount(h, account.id, user.id, "administrator");
  const response = await accountApi(h, account).post("/agents/bulk_create", { emails: [user.email.toUpperCase()] });
  t.is(response.status, 200);
  const membership = await h.knex("account_users").where({ account_id: account.id, user_id: user.id });
  t.is(membership.length, 1);
  t.is(membership[0].role, "administrator", "an existing membership keeps its role");
});
