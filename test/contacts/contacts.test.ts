import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/contacts`;
const eventsOf = (accountId: number, name: string) => h.knex("events").where({ account_id: accountId, name }).orderBy("id");

test("create with inbox_id answers Chatwoot's payload, makes a contact inbox with a UUID source_id and emits contact_created", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "API" });
  // An agent names only inboxes they are a member of (test/inboxes/inboxMembership.test.ts).
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const response = await h.request("POST", path(account), {
    token: account.agent.token,
    body: {
      inbox_id: inbox.id,
      name: "Ann",
      email: "Ann@Example.COM",
      phone_number: "+14155550100",
      identifier: "crm-1",
      additional_attributes: { city: "Paris" },
    },
  });
  t.is(response.status, 200);
  const { contact, contact_inbox } = response.body.payload;
  t.regex(contact_inbox.source_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.like(contact_inbox.inbox, { id: inbox.id, name: "API", channel_type: "Channel::Api", account_id: account.id });
  t.deepEqual(contact, {
    additional_attributes: { city: "Paris" },
    availability_status: "offline",
    email: "ann@example.com",
    id: contact.id,
    name: "Ann",
    phone_number: "+14155550100",
    blocked: false,
    identifier: "crm-1",
    thumbnail: "",
    custom_attributes: {},
    created_at: contact.created_at,
    contact_inboxes: [
      {
        source_id: contact_inbox.source_id,
        inbox: { id: inbox.id, avatar_url: "", channel_id: inbox.channel_id, name: "API", channel_type: "Channel::Api", provider: null },
      },
    ],
  });
  t.true(Math.abs(contact.created_at - Date.now() / 1000) < 60);
  const row = await h.knex("contacts").where("id", contact.id).first();
  t.like(row, { account_id: account.id, location: "Paris", contact_type: "lead" });
  t.like(await h.knex("contact_inboxes").where("contact_id", contact.id).first(), { inbox_id: inbox.id, source_id: contact_inbox.source_id });

  const [event] = await eventsOf(account.id, "contact_created");
  t.deepEqual(event.payload, {
    event: "contact_created",
    account: { id: account.id, name: "Test Account" },
    additional_attributes: { city: "Paris" },
    avatar: "",
    custom_attributes: {},
    email: "ann@example.com",
    id: contact.id,
    identifier: "crm-1",
    name: "Ann",
    phone_number: "+14155550100",
    thumbnail: "",
    blocked: false,
  });

  const bare = await h.request("POST", path(account), { token: account.admin.token, body: { contact: { name: "No inbox" } } });
  t.is(bare.status, 200);
  t.deepEqual(bare.body.payload.contact_inbox, { inbox: null, source_id: null });
  t.deepEqual(bare.body.payload.contact.contact_inboxes, []);
});

test("validation: email format and case-insensitive uniqueness, E.164 phone, unique identifier; nothing written", async (t) => {
  const account = await createAccount(h);
  await createContact(h, account, { email: "taken@example.com", phone_number: "+442071838750", identifier: "id-1" });
  const cases: [Record<string, unknown>, string, string[]][] = [
    [{ email: "not-an-email" }, "Email Invalid email", ["email"]],
    [{ email: "TAKEN@example.com" }, "Email has already been taken", ["email"]],
    [{ phone_number: "4155550100" }, "Phone number should be in e164 format", ["phone_number"]],
    [{ phone_number: "+0123" }, "Phone number should be in e164 format", ["phone_number"]],
    [{ phone_number: "+442071838750" }, "Phone number has already been taken", ["phone_number"]],
    [{ identifier: "id-1" }, "Identifier has already been taken", ["identifier"]],
    [{ email: "taken@example.com", identifier: "id-1" }, "Email has already been taken, Identifier has already been taken", ["email", "identifier"]],
  ];
  for (const [body, message, attributes] of cases) {
    const response = await h.request("POST", path(account), { token: account.admin.token, body: { name: "X", ...body } });
    t.is(response.status, 422, JSON.stringify(body));
    t.deepEqual(response.body, { message, attributes });
  }
  t.is((await h.knex("contacts").where("account_id", account.id)).length, 1);
  t.is((await eventsOf(account.id, "contact_created")).length, 1);

  // The same values are free in another account.
  const other = await createAccount(h);
  t.is((await h.request("POST", path(other), { token: other.admin.token, body: { email: "taken@example.com", identifier: "id-1" } })).status, 200);

  const missingInbox = await h.request("POST", path(account), { token: account.admin.token, body: { name: "Y", inbox_id: 999999999 } });
  t.is(missingInbox.status, 404);
  t.is((await h.knex("contacts").where({ account_id: account.id, name: "Y" })).length, 0);
});

test("update merges custom and additional attributes and emits contact_updated with changed_attributes, not when nothing changed", async (t) => {
  const account = await createAccount(h);
  for (const key of ["plan", "seats"]) {
    await h.request("POST", `/api/v1/accounts/${account.id}/custom_attribute_definitions`, {
      token: account.admin.token,
      body: { attribute_display_name: key, attribute_key: key, attribute_model: 1, attribute_display_type: key === "seats" ? 1 : 0 },
    });
  }
  const { contact } = await createContact(h, account, {
    name: "Bo",
    custom_attributes: { plan: "free" },
    additional_attributes: { company_name: "Acme", city: "Oslo" },
  });
  const updated = await h.request("PATCH", `${path(account)}/${contact.id}`, {
    token: account.agent.token,
    body: { name: "Bo Renamed", custom_attributes: { seats: 5 }, additional_attributes: { city: "Bergen" } },
  });
  t.is(updated.status, 200);
  t.like(updated.body.payload, {
    id: contact.id,
    name: "Bo Renamed",
    custom_attributes: { plan: "free", seats: 5 },
    additional_attributes: { company_name: "Acme", city: "Bergen" },
  });
  const [event] = await eventsOf(account.id, "contact_updated");
  t.is(event.payload.event, "contact_updated");
  t.is(event.payload.name, "Bo Renamed");
  const changed = Object.assign({}, ...event.payload.changed_attributes);
  t.deepEqual(changed.name, { previous_value: "Bo", current_value: "Bo Renamed" });
  t.deepEqual(changed.custom_attributes, { previous_value: { plan: "free" }, current_value: { plan: "free", seats: 5 } });
  t.deepEqual(changed.location, { previous_value: "Oslo", current_value: "Bergen" });
  t.truthy(changed.updated_at);
  t.true(event.payload.changed_attributes.every((entry: object) => Object.keys(entry).length === 1));

  const unchanged = await h.request("PUT", `${path(account)}/${contact.id}`, { token: account.agent.token, body: { name: "Bo Renamed" } });
  t.is(unchanged.status, 200);
  t.is((await eventsOf(account.id, "contact_updated")).length, 1);

  const conflict = await createContact(h, account, { email: "other@example.com" });
  const refused = await h.request("PATCH", `${path(account)}/${conflict.contact.id}`, {
    token: account.admin.token,
    body: { name: "Z", email: "x@", custom_attributes: { seats: 1 } },
  });
  t.is(refused.status, 422);
  t.like(await h.knex("contacts").where("id", conflict.contact.id).first(), { name: "Jane Roe", email: "other@example.com", custom_attributes: {} });
});

test("show, delete (administrators only) and cross-account isolation", async (t) => {
  const account = await createAccount(h);
  const stranger = await createAccount(h);
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id, email: "show@example.com" });
  const shown = await h.request("GET", `${path(account)}/${contact.id}`, { token: account.agent.token });
  t.is(shown.status, 200);
  t.deepEqual(shown.body.payload, contact);

  for (const [method, body] of [
    ["GET", undefined],
    ["PATCH", { name: "x" }],
    ["DELETE", undefined],
  ] as const) {
    t.is((await h.request(method, `${path(stranger)}/${contact.id}`, { token: stranger.admin.token, body })).status, 404, method);
  }
  t.is((await h.request("GET", `${path(account)}/${contact.id}`, { token: stranger.admin.token })).status, 401);

  const agentDelete = await h.request("DELETE", `${path(account)}/${contact.id}`, { token: account.agent.token });
  t.is(agentDelete.status, 401);
  const deleted = await h.request("DELETE", `${path(account)}/${contact.id}`, { token: account.admin.token });
  t.is(deleted.status, 200);
  t.is(deleted.body, undefined, "head :ok has an empty body");
  t.is(await h.knex("contacts").where("id", contact.id).first(), undefined);
  t.is((await h.knex("contact_inboxes").where("contact_id", contact.id)).length, 0);
  t.is((await h.request("GET", `${path(account)}/${contact.id}`, { token: account.admin.token })).status, 404);
});

test("list pages by 15 with meta.count and meta.current_page, leaving out anonymous contacts; search matches name, email, phone and id", async (t) => {
  const account = await createAccount(h);
  for (let i = 0; i < 17; i++) await createContact(h, account, { name: `Person ${String(i).padStart(2, "0")}`, email: `p${i}@example.com` });
  await createContact(h, account, { name: "Anonymous visitor" });

  const first = await h.request("GET", `${path(account)}?sort=name`, { token: account.agent.token });
  t.is(first.status, 200);
  t.deepEqual(first.body.meta, { count: 17, current_page: 1 });
  t.is(first.body.payload.length, 15);
  t.is(first.body.payload[0].name, "Person 00");
  const second = await h.request("GET", `${path(account)}?page=2&sort=name`, { token: account.agent.token });
  t.deepEqual(second.body.meta, { count: 17, current_page: "2" });
  t.deepEqual(
    second.body.payload.map((c: any) => c.name),
    ["Person 15", "Person 16"],
  );
  const descending = await h.request("GET", `${path(account)}?sort=-name&include_contact_inboxes=false`, { token: account.agent.token });
  t.is(descending.body.payload[0].name, "Person 16");
  t.false("contact_inboxes" in descending.body.payload[0]);
  // Kaminari reads page 0 (n8n's default) as the first page; meta echoes the page as sent.
  const zeroth = await h.request("GET", `${path(account)}?page=0`, { token: account.agent.token });
  t.deepEqual([zeroth.status, zeroth.body.payload.length, zeroth.body.meta.current_page], [200, 15, "0"]);

  const search = await h.request("GET", `${path(account)}/search?q=person%201`, { token: account.agent.token });
  t.is(search.status, 200);
  t.deepEqual(search.body.meta, { count: 7, current_page: 1, has_more: false });
  const byEmail = await h.request("GET", `${path(account)}/search?q=P3@EXAMPLE`, { token: account.agent.token });
  t.deepEqual(
    byEmail.body.payload.map((c: any) => c.name),
    ["Person 03"],
  );
  const anonymous = await h.request("GET", `${path(account)}/search?q=anonymous`, { token: account.agent.token });
  t.is(anonymous.body.payload.length, 1);
  const byId = await h.request("GET", `${path(account)}/search?q=${anonymous.body.payload[0].id}`, { token: account.agent.token });
  t.true(byId.body.payload.some((c: any) => c.name === "Anonymous visitor"));
  const many = await h.request("GET", `${path(account)}/search?q=person`, { token: account.agent.token });
  t.deepEqual(many.body.meta, { count: 15, current_page: 1, has_more: true });
  const blank = await h.request("GET", `${path(account)}/search`, { token: account.agent.token });
  t.is(blank.status, 422);
  t.deepEqual(blank.body, { error: "Specify search string with parameter q" });

  const stranger = await createAccount(h);
  t.deepEqual((await h.request("GET", path(stranger), { token: stranger.admin.token })).body, { meta: { count: 0, current_page: 1 }, payload: [] });
  t.is((await h.request("GET", `${path(stranger)}/search?q=person`, { token: stranger.admin.token })).body.payload.length, 0);
});

test("contactable inboxes: API inboxes with the existing or a fresh source_id, only inboxes the agent may see", async (t) => {
  const account = await createAccount(h);
  const used = await createInbox(h, account, { name: "A used" });
  const fresh = await createInbox(h, account, { name: "B fresh" });
  const { contact, sourceId } = await createContact(h, account, { inbox_id: used.id });

  const response = await h.request("GET", `${path(account)}/${contact.id}/contactable_inboxes`, { token: account.admin.token });
  t.is(response.status, 200);
  t.is(response.body.payload.length, 2);
  t.is(response.body.payload[0].source_id, sourceId);
  t.is(response.body.payload[0].inbox.id, used.id);
  t.like(response.body.payload[1].inbox, { id: fresh.id, name: "B fresh" });
  t.regex(response.body.payload[1].source_id, /^[0-9a-f-]{36}$/);

  await setInboxMembers(h, account, fresh.id, [account.agent.id]);
  const agentView = await h.request("GET", `${path(account)}/${contact.id}/contactable_inboxes`, { token: account.agent.token });
  t.deepEqual(
    agentView.body.payload.map((entry: any) => entry.inbox.id),
    [fresh.id],
  );
});

test("destroy_custom_attributes removes the listed keys", async (t) => {
  const account = await createAccount(h);
  await h.request("POST", `/api/v1/accounts/${account.id}/custom_attribute_definitions`, {
    token: account.admin.token,
    body: { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: "contact_attribute" },
  });
  const { contact } = await createContact(h, account, { custom_attributes: { tier: "gold" } });
  const response = await h.request("POST", `${path(account)}/${contact.id}/destroy_custom_attributes`, {
    token: account.agent.token,
    body: { custom_attributes: ["tier"] },
  });
  t.is(response.status, 200);
  t.deepEqual(response.body.payload.custom_attributes, {});
});

test("long values are stored as Chatwoot stores them; a NUL character is 422 and writes nothing", async (t) => {
  const account = await createAccount(h);
  const city = "C".repeat(300);
  const long = await h.request("POST", path(account), { token: account.agent.token, body: { name: "Ann", additional_attributes: { city } } });
  t.is(long.status, 200);
  t.is(long.body.payload.contact.additional_attributes.city, city);
  const longName = await h.request("POST", path(account), { token: account.agent.token, body: { name: "N".repeat(256) } });
  t.deepEqual(longName.body, { message: "Name is too long (maximum is 255 characters)", attributes: ["name"] });

  const nul = await h.request("POST", path(account), { token: account.agent.token, body: { name: "Ann\u0000" } });
  t.is(nul.status, 422);
  t.is(nul.body.message, "contains a character that is not allowed");
  t.is((await h.knex("contacts").where({ account_id: account.id })).length, 1);
});
