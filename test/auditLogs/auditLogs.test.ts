import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { createInbox } from "../support/conversationFactories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/audit_logs`;

test("lists the account's audit logs newest first with every field, 25 a page", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Audited" });
  await accountApi(h, account).patch(`/inboxes/${inbox.id}`, { name: "Renamed" });
  await h.request("POST", `/api/v1/accounts/${account.id}/inbox_members`, {
    token: account.admin.token,
    body: { inbox_id: inbox.id, user_ids: [account.agent.id] },
  });

  const response = await h.request("GET", path(account), { token: account.admin.token, headers: { "x-request-id": "req-123" } });
  t.is(response.status, 200);
  t.like(response.body, { per_page: 25, current_page: 1 });
  const logs = response.body.audit_logs;
  t.is(response.body.total_entries, logs.length);
  const ours = logs.filter((l: any) => ["Inbox", "InboxMember"].includes(l.auditable_type));
  t.deepEqual(
    ours.map((l: any) => [l.auditable_type, l.action]),
    [
      ["InboxMember", "create"],
      ["Inbox", "update"],
      ["Inbox", "create"],
    ],
  );
  const update = ours[1];
  t.deepEqual(Object.keys(update).sort(), [
    "action",
    "associated_id",
    "associated_type",
    "auditable",
    "auditable_id",
    "auditable_type",
    "audited_changes",
    "comment",
    "created_at",
    "id",
    "remote_address",
    "request_uuid",
    "user_id",
    "user_type",
    "username",
    "version",
  ]);
  t.like(update, {
    auditable_id: inbox.id,
    auditable: null,
    user_id: account.admin.id,
    user_type: "User",
    username: account.admin.email,
    version: 2,
    comment: null,
  });
  t.deepEqual(update.audited_changes, { name: ["Audited", "Renamed"] });
  t.true(Number.isInteger(update.created_at) && Math.abs(update.created_at - Date.now() / 1000) < 60);
  t.truthy(update.remote_address);
  t.like(ours[0], { associated_type: "Inbox", associated_id: inbox.id });
  t.deepEqual(ours[0].audited_changes, { inbox_id: inbox.id, user_id: account.agent.id });

  const ids: number[] = logs.map((l: any) => l.id);
  t.deepEqual(
    ids,
    [...ids].sort((a, b) => b - a),
  );
});

test("pages hold 25 entries", async (t) => {
  const account = await createAccount(h);
  // Provisioning the account already audited its memberships; the fixtures come after them.
  const baseline = (await h.request("GET", path(account), { token: account.admin.token })).body.total_entries as number;
  const start = Math.floor(Date.now() / 1000) + 60;
  const rows = Array.from({ length: 30 }, (_, i) => ({
    account_id: account.id,
    auditable_type: "Webhook",
    auditable_id: i + 1,
    action: "create",
    audited_changes: JSON.stringify({ n: i }),
    created_at: new Date((start + i) * 1000),
  }));
  await h.knex("audit_logs").insert(rows);
  const first = await h.request("GET", path(account), { token: account.admin.token });
  t.is(first.body.audit_logs.length, 25);
  t.is(first.body.total_entries, baseline + 30);
  t.deepEqual(first.body.audit_logs[0].audited_changes, { n: 29 });
  const second = await h.request("GET", `${path(account)}?page=2`, { token: account.admin.token });
  t.like(second.body, { per_page: 25, total_entries: baseline + 30, current_page: 2 });
  t.deepEqual(
    second.body.audit_logs.slice(0, 5).map((l: any) => l.audited_changes.n),
    [4, 3, 2, 1, 0],
  );
  t.is(second.body.audit_logs[0].created_at, start + 4);
});

test("administrators only, and each account sees only its own entries", async (t) => {
  const account = await createAccount(h);
  const stranger = await createAccount(h);
  await createInbox(h, stranger);
  const denied = await h.request("GET", path(account), { token: account.agent.token });
  t.is(denied.status, 401);
  t.deepEqual(denied.body, { error: "You are not authorized to do this action" });
  const own = await h.request("GET", path(account), { token: account.admin.token });
  t.false(own.body.audit_logs.some((l: any) => l.auditable_type === "Inbox"));
  t.is((await h.request("GET", path(stranger), { token: account.admin.token })).status, 401);
});

test("with the audit_logs feature off the list is empty", async (t) => {
  const account = await createAccount(h);
  await createInbox(h, account);
  await h
    .knex("accounts")
    .where("id", account.id)
    .update({ features: h.knex.raw("array_remove(features, 'audit_logs')") });
  const response = await h.request("GET", path(account), { token: account.admin.token });
  t.is(response.status, 200);
  t.deepEqual(response.body, { per_page: 25, total_entries: 0, current_page: 1, audit_logs: [] });
});
