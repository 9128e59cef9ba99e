import test from "ava";
import { createAccount, createUser, addToAccount, type TestAccount } from "../support/factories";
import { createInbox } from "../support/conversationFactories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/inbox_members`;
const ids = (response: { body: any }) => response.body.payload.map((agent: any) => agent.id);

test("add, show, replace and remove inbox members, each change audited with its inbox", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const third = await createUser(h, { name: "Third Agent" });
  await addToAccount(h, account.id, third.id, "agent");
  const token = account.admin.token;

  const added = await h.request("POST", path(account), { token, body: { inbox_id: inbox.id, user_ids: [account.agent.id, account.admin.id] } });
  t.is(added.status, 200);
  t.deepEqual(
    ids(added),
    [account.admin.id, account.agent.id].sort((a, b) => a - b),
  );
  const agent = added.body.payload.find((a: any) => a.id === account.agent.id);
  t.deepEqual(agent, {
    id: account.agent.id,
    account_id: account.id,
    availability_status: "online",
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

  // Adding again is a no-op for existing members.
  const again = await h.request("POST", path(account), { token, body: { inbox_id: String(inbox.id), user_ids: [account.agent.id] } });
  t.deepEqual(ids(again), ids(added));

  const replaced = await h.request("PATCH", path(account), { token, body: { inbox_id: String(inbox.id), user_ids: [third.id, account.agent.id] } });
  t.is(replaced.status, 200);
  t.deepEqual(
    ids(replaced),
    [account.agent.id, third.id].sort((a, b) => a - b),
  );
  const rows = await h.knex("inbox_members").where("inbox_id", inbox.id).orderBy("user_id");
  t.deepEqual(
    rows.map((r) => r.user_id),
    [account.agent.id, third.id].sort((a, b) => a - b),
  );

  const shown = await h.request("GET", `${path(account)}/${inbox.id}`, { token });
  t.deepEqual(shown.body, replaced.body);

  const removed = await h.request("DELETE", path(account), { token, body: { inbox_id: inbox.id, user_ids: [third.id, 999999999] } });
  t.is(removed.status, 200);
  t.is(removed.body, undefined, "head :ok has an empty body");
  t.deepEqual(ids(await h.request("GET", `${path(account)}/${inbox.id}`, { token })), [account.agent.id]);

  const audits = await h.knex("audit_logs").where({ auditable_type: "InboxMember", account_id: account.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => [a.action, a.audited_changes.user_id]),
    [
      ["create", account.agent.id],
      ["create", account.admin.id],
      ["destroy", account.admin.id],
      ["create", third.id],
      ["destroy", third.id],
    ],
  );
  for (const audit of audits) t.like(audit, { associated_type: "Inbox", associated_id: inbox.id, user_id: account.admin.id, username: account.admin.email });
});

test("a user id outside the account is refused with 422 and the membership stays unchanged", async (t) => {
  const account = await createAccount(h);
  const stranger = await createAccount(h);
  const inbox = await createInbox(h, account);
  const token = account.admin.token;
  await h.request("PATCH", path(account), { token, body: { inbox_id: inbox.id, user_ids: [account.agent.id] } });
  for (const userIds of [[stranger.agent.id], [account.admin.id, 987654321]]) {
    const response = await h.request("PATCH", path(account), { token, body: { inbox_id: inbox.id, user_ids: userIds } });
    t.is(response.status, 422);
    t.deepEqual(response.body, { message: "User must exist", attributes: ["user"] });
  }
  t.deepEqual(
    (await h.knex("inbox_members").where("inbox_id", inbox.id)).map((r) => r.user_id),
    [account.agent.id],
  );
  const missing = await h.request("PATCH", path(account), { token, body: { inbox_id: inbox.id } });
  t.is(missing.status, 422);
  t.deepEqual(missing.body.attributes, ["user_ids"]);
});

test("agents may see members of their own inboxes only and may not change them; other accounts' inboxes are not found", async (t) => {
  const account = await createAccount(h);
  const mine = await createInbox(h, account);
  const other = await createInbox(h, account);
  await h.request("PATCH", path(account), { token: account.admin.token, body: { inbox_id: mine.id, user_ids: [account.agent.id] } });

  t.is((await h.request("GET", `${path(account)}/${mine.id}`, { token: account.agent.token })).status, 200);
  const hidden = await h.request("GET", `${path(account)}/${other.id}`, { token: account.agent.token });
  t.is(hidden.status, 401);
  t.deepEqual(hidden.body, { error: "You are not authorized to do this action" });
  for (const method of ["POST", "PATCH", "DELETE"]) {
    const response = await h.request(method, path(account), { token: account.agent.token, body: { inbox_id: mine.id, user_ids: [] } });
    t.is(response.status, 401, method);
  }
  t.is((await h.knex("inbox_members").where("inbox_id", mine.id)).length, 1);

  const stranger = await createAccount(h);
  const foreign = await createInbox(h, stranger);
  t.is((await h.request("GET", `${path(account)}/${foreign.id}`, { token: account.admin.token })).status, 404);
  t.is((await h.request("PATCH", path(account), { token: account.admin.token, body: { inbox_id: foreign.id, user_ids: [account.agent.id] } })).status, 404);
  t.is((await h.knex("inbox_members").where("inbox_id", foreign.id)).length, 0);
});
