import { randomUUID } from "node:crypto";
import test from "ava";
import { addToAccount, createAccount, createUser } from "../support/factories";
import { accountApi, expectOk, tempStorage, useHarness } from "../support/harness";
import { pngOf, requestForm } from "../support/forms";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";

const h = useHarness(test, { settings: { storage: tempStorage() } });

async function download(url: string) {
  return (await fetch(`${h.baseUrl}${new URL(url).pathname}`)).status;
}

test("DELETE profile/avatar removes the user's avatar and its file, answering the profile", async (t) => {
  const user = await createUser(h, { name: "Pictured" });
  const uploaded = await requestForm(
    h,
    "PUT",
    "/api/v1/profile",
    [["avatar", { filename: "me.png", content: await pngOf(16, 16), type: "image/png" }]],
    user.token,
  );
  t.is(uploaded.status, 200, JSON.stringify(uploaded.body));
  const thumbnail = uploaded.body.avatar_url;
  t.is(await download(thumbnail), 200);
  const removed = await h.request("DELETE", "/api/v1/profile/avatar", { token: user.token });
  t.is(removed.status, 200);
  t.like(removed.body, { id: user.id, email: user.email, avatar_url: "" });
  t.is(await download(thumbnail), 404);
});

test("profile reset_access_token issues a new token and the old one stops working", async (t) => {
  const user = await createUser(h);
  const reset = await h.request("POST", "/api/v1/profile/reset_access_token", { token: user.token });
  t.is(reset.status, 200);
  t.not(reset.body.access_token, user.token);
  t.is((await h.request("GET", "/api/v1/profile", { token: reset.body.access_token })).status, 200);
  t.is((await h.request("GET", "/api/v1/profile", { token: user.token })).status, 401);
});

test("profile set_active_account makes that account the active one; another's is 404", async (t) => {
  const first = await createAccount(h, "First");
  const second = await createAccount(h, "Second");
  const user = await createUser(h);
  await addToAccount(h, first.id, user.id, "agent");
  await addToAccount(h, second.id, user.id, "administrator");
  for (const [account, role] of [
    [first, "agent"],
    [second, "administrator"],
  ] as const) {
    const set = await h.request("PUT", "/api/v1/profile/set_active_account", { token: user.token, body: { profile: { account_id: account.id } } });
    t.deepEqual([set.status, set.body], [200, undefined]);
    const profile = await expectOk(h.request("GET", "/api/v1/profile", { token: user.token }), "profile");
    t.like(profile, { account_id: account.id, role });
  }
  const stranger = await createAccount(h, "Stranger");
  t.is((await h.request("PUT", "/api/v1/profile/set_active_account", { token: user.token, body: { account_id: stranger.id } })).status, 404);
});

test("contacts/active lists the contacts online now; DELETE contacts/:id/avatar removes the avatar", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account, account.agent.token);
  const { contact: online } = await createContact(h, account, { name: "Online" });
  await createContact(h, account, { name: "Offline", email: "off@example.com" });
  await h.knex("realtime_presence").insert({
    id: randomUUID(),
    account_id: account.id,
    contact_id: online.id,
    expires_at: new Date(Date.now() + 60_000),
    pubsub_token: randomUUID(),
    process_id: randomUUID(),
  });
  const active = await api.get("/contacts/active");
  t.is(active.status, 200);
  t.deepEqual(active.body.meta, { count: 1, current_page: 1 });
  t.deepEqual(
    active.body.payload.map((c: { id: number; availability_status: string }) => [c.id, c.availability_status]),
    [[online.id, "online"]],
  );

  const base = `/api/v1/accounts/${account.id}/contacts`;
  const pictured = await requestForm(
    h,
    "PATCH",
    `${base}/${online.id}`,
    [["avatar", { filename: "a.png", content: await pngOf(8, 8), type: "image/png" }]],
    account.admin.token,
  );
  const thumbnail = pictured.body.payload.thumbnail;
  t.is(await download(thumbnail), 200);
  const removed = await api.delete(`/contacts/${online.id}/avatar`);
  t.is(removed.status, 200);
  t.like(removed.body.payload, { id: online.id, thumbnail: "" });
  t.is(await download(thumbnail), 404);
  t.is((await accountApi(h, await createAccount(h)).delete(`/contacts/${online.id}/avatar`)).status, 404);
});

test("assignable agents: an inbox's members and the administrators; across inboxes, their common members", async (t) => {
  const account = await createAccount(h);
  const admin = accountApi(h, account);
  const other = await createUser(h, { name: "Other Agent" });
  await addToAccount(h, account.id, other.id, "agent");
  const support = await createInbox(h, account, { name: "Support" });
  const sales = await createInbox(h, account, { name: "Sales" });
  await setInboxMembers(h, account, support.id, [account.agent.id, other.id]);
  await setInboxMembers(h, account, sales.id, [account.agent.id]);
  const ids = (body: { payload: { id: number }[] }) => body.payload.map((a) => a.id).sort();

  const forSupport = await expectOk(admin.get(`/inboxes/${support.id}/assignable_agents`), "support");
  t.deepEqual(ids(forSupport), [account.admin.id, account.agent.id, other.id].sort());
  t.like(
    forSupport.payload.find((a: { id: number }) => a.id === other.id),
    { name: "Other Agent", role: "agent", account_id: account.id },
  );
  const common = await expectOk(admin.get(`/assignable_agents?inbox_ids[]=${support.id}&inbox_ids[]=${sales.id}`), "common");
  t.deepEqual(ids(common), [account.admin.id, account.agent.id].sort());
  t.deepEqual(ids(await expectOk(admin.get(`/assignable_agents?inbox_ids=${sales.id}`), "csv")), [account.admin.id, account.agent.id].sort());

  const hidden = await createInbox(h, account, { name: "Hidden" });
  const asOther = accountApi(h, account, other.token);
  t.is((await asOther.get(`/inboxes/${hidden.id}/assignable_agents`)).status, 401);
  t.is((await asOther.get(`/assignable_agents?inbox_ids[]=${hidden.id}`)).status, 404);
  t.is((await admin.get(`/inboxes/999999999/assignable_agents`)).status, 404);
});

test("DELETE avatar on an inbox (200 empty) and an agent bot (the bot), administrators only", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}`;
  const png = await pngOf(8, 8);
  const image = (): [string, { filename: string; content: Buffer; type: string }] => ["avatar", { filename: "a.png", content: png, type: "image/png" }];
  const inbox = await requestForm(h, "POST", `${base}/inboxes`, [["name", "Pictured"], ["channel[type]", "api"], image()], account.admin.token);
  t.is(inbox.status, 200, JSON.stringify(inbox.body));
  t.is(await download(inbox.body.avatar_url), 200);
  t.is((await h.request("DELETE", `${base}/inboxes/${inbox.body.id}/avatar`, { token: account.agent.token })).status, 401);
  const removed = await h.request("DELETE", `${base}/inboxes/${inbox.body.id}/avatar`, { token: account.admin.token });
  t.deepEqual([removed.status, removed.body], [200, undefined]);
  t.is(await download(inbox.body.avatar_url), 404);
  t.is((await expectOk(accountApi(h, account).get(`/inboxes/${inbox.body.id}`), "inbox")).avatar_url, "");

  const bot = await requestForm(h, "POST", `${base}/agent_bots`, [["name", "Botty"], image()], account.admin.token);
  t.is(bot.status, 200, JSON.stringify(bot.body));
  t.is(await download(bot.body.thumbnail), 200);
  const botRemoved = await h.request("DELETE", `${base}/agent_bots/${bot.body.id}/avatar`, { token: account.admin.token });
  t.is(botRemoved.status, 200);
  t.like(botRemoved.body, { id: bot.body.id, name: "Botty", thumbnail: "" });
  t.is(await download(bot.body.thumbnail), 404);
  t.is((await accountApi(h, await createAccount(h)).delete(`/agent_bots/${bot.body.id}/avatar`)).status, 404);
});
