import test from "ava";
import { clinic } from "../scheduling/bookingSupport";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { pngOf, requestForm } from "../support/forms";
import { accountApi, expectOk, tempStorage, useHarness } from "../support/harness";

/**
 * Ordinary values real clients send (n8n sends every field with its default, Evolution API and WAHA
 * send what the SDK builds) and Chatwoot's Rails accepts: each is accepted here the same way.
 */

const h = useHarness(test, { worker: true, settings: { storage: tempStorage() } });

async function withAvatar(account: TestAccount, path: string, fields: [string, string][] = []) {
  const png = await pngOf(8, 8);
  return expectOk(
    requestForm(
      h,
      "POST",
      `/api/v1/accounts/${account.id}${path}`,
      [...fields, ["avatar", { filename: "a.png", content: png, type: "image/png" }]],
      account.admin.token,
    ),
    `create ${path} with an avatar`,
  );
}

test("avatar: blank or null removes the avatar; a blank avatar_url changes nothing (contacts, inboxes, bots, profile)", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);

  const contact = (await withAvatar(account, "/contacts", [["name", "Ann"]])).payload.contact;
  t.not(contact.thumbnail, "");
  const cleared = await api.patch(`/contacts/${contact.id}`, { avatar: null, avatar_url: "", email: "" });
  t.is(cleared.status, 200, JSON.stringify(cleared.body));
  t.is(cleared.body.payload.thumbnail, "");
  const created = await api.post("/contacts", { name: "Bo", avatar: "", avatar_url: "" });
  t.is(created.status, 200, JSON.stringify(created.body));

  const inbox = await withAvatar(account, "/inboxes", [
    ["name", "Avatar inbox"],
    ["channel[type]", "api"],
  ]);
  t.not(inbox.avatar_url, "");
  const inboxCleared = await api.patch(`/inboxes/${inbox.id}`, { avatar: "" });
  t.is(inboxCleared.status, 200, JSON.stringify(inboxCleared.body));
  t.is(inboxCleared.body.avatar_url, "");

  const bot = await withAvatar(account, "/agent_bots", [["name", "Bot"]]);
  const botCleared = await api.patch(`/agent_bots/${bot.id}`, { avatar: null, avatar_url: "", outgoing_url: "" });
  t.is(botCleared.status, 200, JSON.stringify(botCleared.body));
  t.is(botCleared.body.thumbnail, "");
  const platformBot = await h.request("POST", "/platform/api/v1/agent_bots", { token: h.platformToken, body: { name: "P", outgoing_url: "", avatar_url: "" } });
  t.is(platformBot.status, 200, JSON.stringify(platformBot.body));

  const profile = await h.request("PUT", "/api/v1/profile", { token: account.admin.token, body: { name: "Admin", avatar: "" } });
  t.is(profile.status, 200, JSON.stringify(profile.body));

  const inboxRow = (await createInbox(h, account)) as { inbox_identifier: string };
  const visitor = await h.request("POST", `/public/api/v1/inboxes/${inboxRow.inbox_identifier}/contacts`, { body: { name: "V", avatar_url: "" } });
  t.is(visitor.status, 200, JSON.stringify(visitor.body));
});

test("page=0 (or junk) is page 1 on lists and filters", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await createInbox(h, account);
  // The contacts list shows contacts with an email, phone number or identifier.
  const { contact } = await createContact(h, account, { inbox_id: inbox.id, email: "jane@example.com" });
  await expectOk(api.post("/conversations", { inbox_id: inbox.id, contact_id: contact.id }), "conversation");
  const payload = [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }];

  const contacts = await api.get("/contacts?page=0");
  t.deepEqual([contacts.status, contacts.body.payload.length], [200, 1]);
  const conversations = await api.get("/conversations?page=0");
  t.deepEqual([conversations.status, conversations.body.data.payload.length], [200, 1]);
  const contactFilter = await api.post("/contacts/filter?page=0", {
    payload: [{ attribute_key: "name", filter_operator: "equal_to", values: ["Jane Roe"], query_operator: null }],
  });
  t.deepEqual([contactFilter.status, contactFilter.body.payload.length], [200, 1]);
  const conversationFilter = await api.post("/conversations/filter?page=0", { payload });
  t.deepEqual([conversationFilter.status, conversationFilter.body.payload.length], [200, 1]);
  t.is((await api.get("/automation_rules?page=0")).status, 200);
  t.is((await api.get("/conversations?page=abc")).status, 200);
});

test("conversation create: blank assignee_id and team_id mean none; assignments ignore team_id 0 beside assignee_id", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  const created = await api.post("/conversations", { inbox_id: String(inbox.id), contact_id: String(contact.id), assignee_id: "", team_id: "" });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is(created.body.meta.assignee ?? null, null);

  await expectOk(api.patch("/inbox_members", { inbox_id: inbox.id, user_ids: [account.agent.id] }), "members");
  const team = await expectOk(api.post("/teams", { name: "support" }), "team");
  await expectOk(api.post(`/conversations/${created.body.id}/assignments`, { team_id: team.id }), "team assignment");
  const assigned = await api.post(`/conversations/${created.body.id}/assignments`, { assignee_id: account.agent.id, team_id: 0 });
  t.is(assigned.status, 200, JSON.stringify(assigned.body));
  t.is(assigned.body.id, account.agent.id);
  const shown = await expectOk(api.get(`/conversations/${created.body.id}`), "conversation");
  t.is(shown.meta.assignee.id, account.agent.id);
  t.is(shown.meta.team.id, team.id, "team_id beside assignee_id is ignored");
});

test("API inbox create with webhook_url blank; message create with template_params {}; attribute_values [null]", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await api.post("/inboxes", { name: "Blank hook", channel: { type: "api", webhook_url: "" } });
  t.is(inbox.status, 200, JSON.stringify(inbox.body));
  t.falsy(inbox.body.webhook_url);

  const { contact } = await createContact(h, account, { inbox_id: inbox.body.id });
  const conversation = await expectOk(api.post("/conversations", { inbox_id: inbox.body.id, contact_id: contact.id }), "conversation");
  const message = await api.post(`/conversations/${conversation.id}/messages`, { content: "hi", template_params: {}, private: "1" });
  t.is(message.status, 200, JSON.stringify(message.body));
  t.true(message.body.private);

  const definition = await api.post("/custom_attribute_definitions", {
    attribute_display_name: "Size",
    attribute_key: "size",
    attribute_model: 0,
    attribute_display_type: 0,
    attribute_values: [null],
  });
  t.is(definition.status, 200, JSON.stringify(definition.body));
  t.deepEqual(definition.body.attribute_values, []);
});

test("custom_attributes: a key without a definition is stored as sent; a defined key is still checked", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  await expectOk(
    api.post("/custom_attribute_definitions", {
      attribute_display_name: "Age",
      attribute_key: "age",
      attribute_model: "contact_attribute",
      attribute_display_type: "number",
    }),
    "definition",
  );
  const { contact } = await createContact(h, account);
  const stored = await api.put(`/contacts/${contact.id}`, { custom_attributes: { waha_whatsapp_jid: "5511@s.whatsapp.net" } });
  t.is(stored.status, 200, JSON.stringify(stored.body));
  t.deepEqual(stored.body.payload.custom_attributes, { waha_whatsapp_jid: "5511@s.whatsapp.net" });
  const refused = await api.put(`/contacts/${contact.id}`, { custom_attributes: { age: "forty" } });
  t.deepEqual([refused.status, refused.body.attributes], [422, ["custom_attributes"]]);
});

test("id lists as CSV or arrays; Rails booleans; availability `available`", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const team = await expectOk(api.post("/teams", { name: "csv", allow_auto_assign: "false" }), "team");
  t.false(team.allow_auto_assign);
  const members = await api.post(`/teams/${team.id}/team_members`, { user_ids: `${account.agent.id},${account.admin.id}` });
  t.is(members.status, 200, JSON.stringify(members.body));
  t.is(members.body.length, 2);

  const { contact } = await createContact(h, account);
  const blocked = await api.patch(`/contacts/${contact.id}`, { blocked: "true" });
  t.is(blocked.status, 200, JSON.stringify(blocked.body));
  t.true(blocked.body.payload.blocked);
  t.is((await api.patch(`/contacts/${contact.id}`, { blocked: "maybe" })).status, 422, "a word Rails would read as true is refused");

  const agent = await api.patch(`/agents/${account.agent.id}`, { availability: "available", auto_offline: "0" });
  t.is(agent.status, 200, JSON.stringify(agent.body));
  t.like(agent.body, { availability_status: "online", auto_offline: false });

  const c = await clinic(h);
  const paid = await c.api.post("/expenses/pay_all", { resource_ids: [c.resource.id] });
  t.is(paid.status, 202, JSON.stringify(paid.body));
  t.is(paid.body.payload.count, 0);
});

test("unknown values of list parameters fall back to the default", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  await createContact(h, account, { email: "x@example.com" });
  const contacts = await api.get("/contacts?sort=shoe_size&include_contact_inboxes=maybe");
  t.deepEqual([contacts.status, contacts.body.payload.length], [200, 1]);
  t.true("contact_inboxes" in contacts.body.payload[0]);
  for (const query of ["sort_by=shoe_size", "status=closed", "assignee_type=them", "inbox_id=0&team_id="]) {
    t.is((await api.get(`/conversations?${query}`)).status, 200, query);
  }
  const report = await h.request("GET", `/api/v2/accounts/${account.id}/reports/summary?type=account&id=&since=&until=`, { token: account.admin.token });
  t.is(report.status, 200, JSON.stringify(report.body));
});

test("public message update: submitted_values {} is no answer", async (t) => {
  const account = await createAccount(h);
  const inbox = (await createInbox(h, account)) as { inbox_identifier: string };
  const base = `/public/api/v1/inboxes/${inbox.inbox_identifier}`;
  const visitor = await expectOk(h.request("POST", `${base}/contacts`, { body: { name: "V" } }), "visitor");
  const conversation = await expectOk(h.request("POST", `${base}/contacts/${visitor.source_id}/conversations`, { body: {} }), "conversation");
  const path = `${base}/contacts/${visitor.source_id}/conversations/${conversation.id}/messages`;
  const message = await expectOk(h.request("POST", path, { body: { content: "hi" } }), "message");
  const updated = await h.request("PATCH", `${path}/${message.id}`, { body: { submitted_values: {} } });
  t.is(updated.status, 200, JSON.stringify(updated.body));
});
