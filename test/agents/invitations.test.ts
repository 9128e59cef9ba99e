import test from "ava";
import { createAccount, createUser } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const agentsPath = (accountId: number) => `/api/v1/accounts/${accountId}/agents`;
const invitationsOf = async (token: string) => (await h.request("GET", "/api/v1/profile/invitations", { token })).body.payload;

test("an administrator of B adding a user of A only invites them; they join B on accepting, with the role given", async (t) => {
  const [a, b] = [await createAccount(h, "Account A"), await createAccount(h, "Account B")];
  const invited = await h.request("POST", agentsPath(b.id), {
    token: b.admin.token,
    body: { email: a.agent.email, role: "administrator", availability: "busy" },
  });
  t.is(invited.status, 202);
  t.like(invited.body, {
    id: a.agent.id,
    account_id: b.id,
    email: a.agent.email,
    role: "administrator",
    availability_status: "busy",
    invitation_status: "pending",
  });
  t.not(invited.body.name, "Agent Person", "A's profile is not shown to B before the user joins");

  t.falsy(await h.knex("account_users").where({ account_id: b.id, user_id: a.agent.id }).first(), "not a member without consent");
  t.false((await h.request("GET", agentsPath(b.id), { token: b.admin.token })).body.some((agent: { id: number }) => agent.id === a.agent.id));
  t.is((await h.request("GET", `/api/v1/accounts/${b.id}`, { token: a.agent.token })).status, 404, "B is not among their accounts");

  const [pending] = await invitationsOf(a.agent.token);
  t.like(pending, { account_id: b.id, account_name: "Account B", role: "administrator", inviter_id: b.admin.id });
  t.deepEqual(await invitationsOf(b.agent.token), [], "nobody else sees it");
  const stolen = await h.request("POST", `/api/v1/profile/invitations/${pending.id}/accept`, { token: b.agent.token });
  t.is(stolen.status, 404, "only the invited user accepts");

  const accepted = await h.request("POST", `/api/v1/profile/invitations/${pending.id}/accept`, { token: a.agent.token });
  t.is(accepted.status, 200);
  t.like(accepted.body, { id: a.agent.id, account_id: b.id, name: "Agent Person", role: "administrator", availability_status: "busy" });
  t.like(await h.knex("account_users").where({ account_id: b.id, user_id: a.agent.id }).first(), { role: "administrator" });
  t.is((await h.request("GET", `/api/v1/accounts/${b.id}`, { token: a.agent.token })).status, 200);
  t.deepEqual(await invitationsOf(a.agent.token), []);
  t.is((await h.request("POST", `/api/v1/profile/invitations/${pending.id}/accept`, { token: a.agent.token })).status, 404, "used up");
  const again = await h.request("POST", agentsPath(b.id), { token: b.admin.token, body: { email: a.agent.email } });
  t.deepEqual([again.status, again.body], [422, { message: "User has already been taken", attributes: ["user_id"] }]);
});

test("an account changes only its membership: the user's name is theirs, and A keeps seeing it", async (t) => {
  const [a, b] = [await createAccount(h), await createAccount(h)];
  await h.request("POST", agentsPath(b.id), { token: b.admin.token, body: { email: a.agent.email } });
  const [pending] = await invitationsOf(a.agent.token);
  await h.request("POST", `/api/v1/profile/invitations/${pending.id}/accept`, { token: a.agent.token });

  const renamed = await h.request("PATCH", `${agentsPath(b.id)}/${a.agent.id}`, { token: b.admin.token, body: { name: "Renamed by B" } });
  t.deepEqual([renamed.status, renamed.body], [422, { message: "Name can only be changed by the user in their profile", attributes: ["name"] }]);
  const inA = (await h.request("GET", agentsPath(a.id), { token: a.admin.token })).body.find((agent: { id: number }) => agent.id === a.agent.id);
  t.is(inA.name, "Agent Person");

  const ownMembership = await h.request("PATCH", `${agentsPath(b.id)}/${a.agent.id}`, {
    token: b.admin.token,
    body: { name: "Agent Person", availability: "offline" },
  });
  t.like(ownMembership.body, { name: "Agent Person", availability_status: "offline" });
  t.is((await h.knex("account_users").where({ account_id: a.id, user_id: a.agent.id }).first()).availability, "online", "A's membership is untouched");
});

test("removing an agent removes the membership, never the user; a pending invitation is withdrawn or declined", async (t) => {
  const [a, b] = [await createAccount(h), await createAccount(h)];
  const created = await h.request("POST", agentsPath(b.id), { token: b.admin.token, body: { email: `new-${b.id}@example.com` } });
  t.is(created.status, 200, "a new email joins at once, as in Chatwoot");
  t.is((await h.request("DELETE", `${agentsPath(b.id)}/${created.body.id}`, { token: b.admin.token })).status, 200);
  t.truthy(await h.knex("users").where({ id: created.body.id }).first(), "the user is kept");

  const loner = await createUser(h, { name: "Loner" });
  t.is((await h.request("POST", agentsPath(b.id), { token: b.admin.token, body: { email: loner.email } })).status, 200, "a user in no account joins");
  t.is((await h.request("DELETE", `${agentsPath(b.id)}/${loner.id}`, { token: b.admin.token })).status, 200);
  t.like(await h.knex("users").where({ id: loner.id }).first(), { name: "Loner" });
  t.is((await h.request("GET", "/api/v1/profile", { token: loner.token })).status, 200, "who can still sign in with their token");

  t.is((await h.request("POST", agentsPath(b.id), { token: b.admin.token, body: { email: a.agent.email } })).status, 202);
  t.is((await h.request("DELETE", `${agentsPath(b.id)}/${a.agent.id}`, { token: b.admin.token })).status, 200, "withdrawn");
  t.deepEqual(await invitationsOf(a.agent.token), []);
  t.truthy(await h.knex("account_users").where({ account_id: a.id, user_id: a.agent.id }).first(), "A's membership stays");

  await h.request("POST", agentsPath(b.id), { token: b.admin.token, body: { email: a.agent.email } });
  const [pending] = await invitationsOf(a.agent.token);
  t.is((await h.request("DELETE", `/api/v1/profile/invitations/${pending.id}`, { token: a.agent.token })).status, 200, "declined");
  t.deepEqual(await invitationsOf(a.agent.token), []);
  t.is((await h.request("DELETE", `${agentsPath(b.id)}/${a.agent.id}`, { token: b.admin.token })).status, 404);
});

test("50 parallel invitations make one invitation, and 50 parallel accepts one membership", async (t) => {
  const [a, b] = [await createAccount(h), await createAccount(h)];
  const invites = await Promise.all(
    Array.from({ length: 50 }, () => h.request("POST", agentsPath(b.id), { token: b.admin.token, body: { email: a.agent.email } })),
  );
  t.deepEqual(
    invites.map((r) => r.status),
    Array(50).fill(202),
  );
  const [pending, ...more] = await invitationsOf(a.agent.token);
  t.deepEqual(more, []);
  const accepts = await Promise.all(
    Array.from({ length: 50 }, () => h.request("POST", `/api/v1/profile/invitations/${pending.id}/accept`, { token: a.agent.token })),
  );
  t.is(accepts.filter((r) => r.status === 200).length, 1);
  t.true(accepts.every((r) => r.status === 200 || r.status === 404));
  t.is((await h.knex("account_users").where({ account_id: b.id, user_id: a.agent.id })).length, 1);
});
