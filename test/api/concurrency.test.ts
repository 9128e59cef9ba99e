/**
 * Every read-modify-write route under 50 parallel requests: each request changes its own part of
 * the same row, and afterwards every part is there. A lost update shows as a missing key or field.
 */
import test from "ava";
import { createAccount, createUser, type TestAccount } from "../support/factories";
import { createContact, createInbox } from "../support/conversationFactories";
import { accountApi, type ApiResponse, useHarness } from "../support/harness";
import { conversationWorld, createConversation } from "../conversations/setup";
import { FEATURE_DEFAULTS } from "../../src/models/accountFeatures";
import { at, clinic } from "../scheduling/bookingSupport";

const h = useHarness(test);

const N = 50;
const indexes = Array.from({ length: N }, (_, i) => i);

/** Sends the i-th request for every i at once; fails the test with the first answer that is not 200. */
async function allAtOnce(send: (i: number) => Promise<ApiResponse>, accept: (status: number) => boolean = (status) => status === 200) {
  const responses = await Promise.all(indexes.map(send));
  const refused = responses.find((response) => !accept(response.status));
  if (refused) throw new Error(`a parallel request answered ${refused.status} ${JSON.stringify(refused.body)}`);
  return responses;
}

const keys = (prefix: string) => Object.fromEntries(indexes.map((i) => [`${prefix}${i}`, `value ${i}`]));

/** Text definitions for the 50 keys, so the custom-attribute checks accept them. */
async function defineKeys(account: TestAccount, model: "conversation_attribute" | "contact_attribute", prefix: string) {
  await h.knex("custom_attribute_definitions").insert(
    indexes.map((i) => ({
      account_id: account.id,
      attribute_display_name: `Key ${i}`,
      attribute_key: `${prefix}${i}`,
      attribute_display_type: 0,
      attribute_model: model === "conversation_attribute" ? 0 : 1,
    })),
  );
}

test("contacts: 50 parallel PATCHes each adding a custom_attributes key keep all 50; the same for additional_attributes", async (t) => {
  const account = await createAccount(h);
  await defineKeys(account, "contact_attribute", "k");
  const { contact } = await createContact(h, account, { name: "Racy" });
  const path = `/api/v1/accounts/${account.id}/contacts/${contact.id}`;
  await allAtOnce((i) => h.request("PATCH", path, { token: account.agent.token, body: { custom_attributes: { [`k${i}`]: `value ${i}` } } }));
  await allAtOnce((i) => h.request("PUT", path, { token: account.admin.token, body: { additional_attributes: { [`a${i}`]: `value ${i}` } } }));
  const stored = (await h.request("GET", path, { token: account.admin.token })).body.payload;
  t.deepEqual(stored.custom_attributes, keys("k"));
  t.deepEqual(stored.additional_attributes, keys("a"));

  // Removing keys races adding them back: even requests drop key i, odd ones set it again; the survivors are exactly the odd keys.
  await allAtOnce((i) =>
    i % 2
      ? h.request("PATCH", path, { token: account.agent.token, body: { custom_attributes: { [`k${i}`]: `again ${i}` } } })
      : h.request("POST", `${path}/destroy_custom_attributes`, { token: account.agent.token, body: { custom_attributes: [`k${i}`] } }),
  );
  const after = (await h.request("GET", path, { token: account.admin.token })).body.payload.custom_attributes;
  t.deepEqual(after, Object.fromEntries(indexes.filter((i) => i % 2).map((i) => [`k${i}`, `again ${i}`])));
});

test("contacts: a PATCH racing a merge that deletes the contact answers 404, never 500", async (t) => {
  const account = await createAccount(h);
  const { contact: base } = await createContact(h, account, { name: "Base", email: `base-${account.id}@example.com` });
  const { contact: mergee } = await createContact(h, account, { name: "Mergee", email: `mergee-${account.id}@example.com` });
  const patches = allAtOnce(
    (i) =>
      h.request("PATCH", `/api/v1/accounts/${account.id}/contacts/${mergee.id}`, {
        token: account.admin.token,
        body: { additional_attributes: { [`a${i}`]: i } },
      }),
    (status) => status === 200 || status === 404,
  );
  const merge = h.request("POST", `/api/v1/accounts/${account.id}/actions/contact_merge`, {
    token: account.admin.token,
    body: { base_contact_id: base.id, mergee_contact_id: mergee.id },
  });
  const [responses, merged] = await Promise.all([patches, merge]);
  t.is(merged.status, 200, JSON.stringify(merged.body));
  t.true(responses.every((r) => r.status === 200 || r.status === 404));
  t.is((await accountApi(h, account).get(`/contacts/${mergee.id}`)).status, 404);
});

test("scheduling contacts: 50 parallel PATCHes each adding a custom attribute keep all 50", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}/scheduling/contacts`;
  const created = await h.request("POST", base, { token: account.admin.token, body: { name: "Racy" } });
  const id = created.body.payload.id;
  await allAtOnce((i) => h.request("PATCH", `${base}/${id}`, { token: account.admin.token, body: { custom_attributes: { [`k${i}`]: `value ${i}` } } }));
  const stored = (await h.request("GET", `${base}/${id}`, { token: account.admin.token })).body.payload;
  t.like(stored.custom_attributes, keys("k"));
});

test("conversations: 50 parallel merges into custom_attributes keep all 50 keys", async (t) => {
  const world = await conversationWorld(h);
  await defineKeys(world.account, "conversation_attribute", "k");
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}/custom_attributes`;
  await allAtOnce((i) => h.request("POST", path, { token: world.account.admin.token, body: { custom_attributes: { [`k${i}`]: `value ${i}` }, merge: true } }));
  const stored = (await h.request("GET", `${world.base}/conversations/${conversation.id}`, { token: world.account.admin.token })).body;
  t.deepEqual(stored.custom_attributes, keys("k"));
});

test("accounts: parallel updates of auto_resolve_after, auto_resolve_message and custom attributes all survive", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}`;
  const bodies = [
    (i: number) => ({ auto_resolve_after: 100 + i }),
    (i: number) => ({ auto_resolve_message: `Closed ${i}` }),
    (i: number) => ({ industry: `Industry ${i}` }),
    (i: number) => ({ company_size: `${i}` }),
    (i: number) => ({ auto_resolve_label: `label-${i}` }),
  ];
  await allAtOnce((i) => h.request("PATCH", path, { token: account.admin.token, body: bodies[i % bodies.length]!(i) }));
  const stored = await h.knex("accounts").where("id", account.id).first();
  t.true(Number.isInteger(stored.settings.auto_resolve_after), JSON.stringify(stored.settings));
  t.regex(String(stored.settings.auto_resolve_message), /^Closed \d+$/);
  t.regex(String(stored.settings.auto_resolve_label), /^label-\d+$/);
  t.regex(String(stored.custom_attributes.industry), /^Industry \d+$/);
  t.regex(String(stored.custom_attributes.company_size), /^\d+$/);
});

test("platform: parallel feature toggles on one account all apply; parallel custom attributes on one user all stay", async (t) => {
  const account = await createAccount(h);
  const features = Object.keys(FEATURE_DEFAULTS);
  // Request i flips feature i (mod the list) away from its default; repeats ask for the same state.
  await allAtOnce((i) => {
    const feature = features[i % features.length]!;
    return h.request("PATCH", `/platform/api/v1/accounts/${account.id}`, {
      token: h.platformToken,
      body: { features: { [feature]: !FEATURE_DEFAULTS[feature] } },
    });
  });
  const enabled: string[] = (await h.knex("accounts").where("id", account.id).first()).features;
  for (const feature of features) t.is(enabled.includes(feature), !FEATURE_DEFAULTS[feature], feature);

  const user = await createUser(h);
  await allAtOnce((i) =>
    h.request("PATCH", `/platform/api/v1/users/${user.id}`, { token: h.platformToken, body: { custom_attributes: { [`k${i}`]: `value ${i}` } } }),
  );
  t.deepEqual((await h.knex("users").where("id", user.id).first()).custom_attributes, keys("k"));
});

test("inbox members: 50 parallel replacements never answer 422 and leave exactly one request's set", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const users = [account.agent, ...(await Promise.all([1, 2, 3, 4].map(() => createUser(h))))];
  for (const user of users.slice(1)) {
    await h.request("POST", `/platform/api/v1/accounts/${account.id}/account_users`, { token: h.platformToken, body: { user_id: user.id, role: "agent" } });
  }
  // Request i asks for the users whose bit is set in i (mod 2^5): overlapping, different sets.
  const setOf = (i: number) =>
    users
      .filter((_, bit) => ((i % 31) + 1) & (1 << bit))
      .map((user) => user.id)
      .sort((a, b) => a - b);
  const responses = await allAtOnce((i) => accountApi(h, account).patch("/inbox_members", { inbox_id: inbox.id, user_ids: setOf(i) }));
  responses.forEach((response, i) =>
    t.deepEqual(
      response.body.payload.map((member: { id: number }) => member.id),
      setOf(i),
      `answer ${i}`,
    ),
  );
  const final = (await h.knex("inbox_members").where("inbox_id", inbox.id).pluck("user_id")).map(Number).sort((a, b) => a - b);
  t.true(
    indexes.some((i) => JSON.stringify(setOf(i)) === JSON.stringify(final)),
    `final set ${JSON.stringify(final)}`,
  );
  // Adding the same agents from 50 requests at once: each answers the full set, none a duplicate 422.
  const other = await createInbox(h, account, { name: "Other" });
  const everyone = users.map((user) => user.id).sort((a, b) => a - b);
  const added = await allAtOnce((i) =>
    h.request("POST", `/api/v1/accounts/${account.id}/inbox_members`, {
      token: account.admin.token,
      body: { inbox_id: other.id, user_ids: [users[i % users.length]!.id, users[0]!.id] },
    }),
  );
  t.true(added.every((response) => response.body.payload.length >= 1));
  t.deepEqual(
    (await h.knex("inbox_members").where("inbox_id", other.id).pluck("user_id")).map(Number).sort((a, b) => a - b),
    everyone,
  );
});

/**
 * Half the requests change one column and half another; both columns end with a value some request
 * sent, and every change was audited against the row it replaced.
 */
async function twoColumnRace(
  t: import("ava").ExecutionContext,
  account: TestAccount,
  path: string,
  [first, second]: [string, string],
  extract: (body: any) => Record<string, unknown>,
) {
  await allAtOnce((i) => h.request("PATCH", path, { token: account.admin.token, body: { [i % 2 ? second : first]: `${i % 2 ? second : first} ${i}` } }));
  const stored = extract((await h.request("GET", path, { token: account.admin.token })).body);
  t.regex(String(stored[first]), new RegExp(`^${first} \\d+$`), path);
  t.regex(String(stored[second]), new RegExp(`^${second} \\d+$`), path);
}

test("agent bots, webhooks, inboxes and automation rules: parallel updates of different fields all survive", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}`;
  const admin = { token: account.admin.token };
  const bot = (await h.request("POST", `${base}/agent_bots`, { ...admin, body: { name: "Bot", outgoing_url: "https://bot.example/hook" } })).body;
  await twoColumnRace(t, account, `${base}/agent_bots/${bot.id}`, ["name", "description"], (body) => body);

  const webhook = (await h.request("POST", `${base}/webhooks`, { ...admin, body: { url: "https://hooks.example/a", subscriptions: ["message_created"] } })).body
    .payload.webhook;
  await allAtOnce((i) =>
    h.request("PATCH", `${base}/webhooks/${webhook.id}`, {
      ...admin,
      body: i % 2 ? { name: `name ${i}` } : { subscriptions: i % 4 ? ["conversation_created"] : ["contact_created"] },
    }),
  );
  const storedHook = await h.knex("webhooks").where("id", webhook.id).first();
  t.regex(String(storedHook.name), /^name \d+$/);
  t.notDeepEqual(storedHook.subscriptions, ["message_created"]);

  const inbox = await createInbox(h, account);
  await twoColumnRace(t, account, `${base}/inboxes/${inbox.id}`, ["name", "greeting_message"], (body) => body);

  const rule = (
    await h.request("POST", `${base}/automation_rules`, {
      ...admin,
      body: {
        name: "Rule",
        event_name: "message_created",
        conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["help"] }],
        actions: [{ action_name: "add_label", action_params: ["x"] }],
      },
    })
  ).body;
  await twoColumnRace(t, account, `${base}/automation_rules/${rule.id}`, ["name", "description"], (body) => body.payload ?? body);
});

test("scheduling: 50 parallel appointment updates each adding a custom attribute keep all 50; parallel settings changes both land", async (t) => {
  const { account, api, resource, service } = await clinic(h);
  const appointment = await api.create("/appointments", { resource_id: resource.id, service_id: service.id, starts_at: at("11:00"), client_name: "Racy" });
  const base = `/api/v1/accounts/${account.id}/scheduling`;
  await allAtOnce((i) =>
    h.request("PATCH", `${base}/appointments/${appointment.id}`, { token: account.admin.token, body: { custom_attributes: { [`k${i}`]: `value ${i}` } } }),
  );
  t.like((await api.get(`/appointments/${appointment.id}`)).body.payload.custom_attributes, keys("k"));

  await allAtOnce((i) =>
    h.request("PATCH", `${base}/settings`, {
      token: account.admin.token,
      body: i % 2 ? { prepayment_hold_minutes: 100 + i } : { reminder_offsets_minutes: [1000 + i] },
    }),
  );
  const settings = (await api.get("/settings")).body.payload;
  t.true(settings.prepayment_hold_minutes > 100, JSON.stringify(settings));
  t.true(settings.reminder_offsets_minutes[0] >= 1000, JSON.stringify(settings));
});

test("custom attribute definitions: parallel updates of different fields survive; updates racing a delete answer 404, never 500", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}/custom_attribute_definitions`;
  const created = (
    await h.request("POST", path, { token: account.admin.token, body: { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: 1 } })
  ).body;
  await twoColumnRace(t, account, `${path}/${created.id}`, ["attribute_display_name", "attribute_description"], (body) => body);

  const doomed = (
    await h.request("POST", path, { token: account.admin.token, body: { attribute_display_name: "Gone", attribute_key: "gone", attribute_model: 1 } })
  ).body;
  const [updates, deleted] = await Promise.all([
    allAtOnce(
      (i) => h.request("PATCH", `${path}/${doomed.id}`, { token: account.admin.token, body: { attribute_description: `d ${i}` } }),
      (status) => status === 200 || status === 404,
    ),
    h.request("DELETE", `${path}/${doomed.id}`, { token: account.admin.token }),
  ]);
  t.true(deleted.status < 300);
  t.true(updates.every((response) => response.status === 200 || response.status === 404));
});

test("scheduling: parallel partial updates never combine into a row no single request was allowed to make; racing a delete is 404", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}/scheduling`;
  const admin = { token: account.admin.token };
  const resource = (await h.request("POST", `${base}/resources`, { ...admin, body: { name: "Dr. Race", compensation_type: "fixed", compensation_value: 50 } }))
    .body.payload;
  const override = (
    await h.request("POST", `${base}/workday_overrides`, {
      ...admin,
      body: { resource_id: resource.id, date: "2027-03-01", start_minute: 600, end_minute: 900 },
    })
  ).body.payload;
  const timeOff = (
    await h.request("POST", `${base}/time_offs`, {
      ...admin,
      body: { resource_id: resource.id, kind: "vacation", starts_at: "2027-03-02T10:00:00Z", ends_at: "2027-03-02T12:00:00Z" },
    })
  ).body.payload;
  const validOrRefused = (status: number) => status === 200 || status === 422;

  // Each half is valid against the stored row alone; together they would put the start after the end.
  await allAtOnce(
    (i) => h.request("PATCH", `${base}/workday_overrides/${override.id}`, { ...admin, body: i % 2 ? { start_minute: 800 } : { end_minute: 700 } }),
    validOrRefused,
  );
  const storedOverride = (await h.request("GET", `${base}/workday_overrides`, admin)).body.payload.find((row: { id: number }) => row.id === override.id);
  t.true(storedOverride.start_minute < storedOverride.end_minute, JSON.stringify(storedOverride));

  await allAtOnce(
    (i) =>
      h.request("PATCH", `${base}/time_offs/${timeOff.id}`, {
        ...admin,
        body: i % 2 ? { starts_at: "2027-03-02T11:30:00Z" } : { ends_at: "2027-03-02T11:00:00Z" },
      }),
    validOrRefused,
  );
  const storedTimeOff = (await h.request("GET", `${base}/time_offs`, admin)).body.payload.find((row: { id: number }) => row.id === timeOff.id);
  t.true(Date.parse(storedTimeOff.starts_at) < Date.parse(storedTimeOff.ends_at), JSON.stringify(storedTimeOff));

  // Percent above 100 is refused; "percent" alone and 5000 alone each fit the stored fixed 50.
  await allAtOnce(
    (i) => h.request("PATCH", `${base}/resources/${resource.id}`, { ...admin, body: i % 2 ? { compensation_type: "percent" } : { compensation_value: 5000 } }),
    validOrRefused,
  );
  const storedResource = (await h.request("GET", `${base}/resources/${resource.id}`, admin)).body.payload;
  t.false(storedResource.compensation_type === "percent" && storedResource.compensation_value > 100, JSON.stringify(storedResource));

  const holiday = (await h.request("POST", `${base}/holidays`, { ...admin, body: { date: "2027-03-08", title: "Doomed" } })).body.payload;
  const [updates, deleted] = await Promise.all([
    allAtOnce(
      (i) => h.request("PATCH", `${base}/holidays/${holiday.id}`, { ...admin, body: { title: `Title ${i}` } }),
      (status) => status === 200 || status === 404,
    ),
    h.request("DELETE", `${base}/holidays/${holiday.id}`, admin),
  ]);
  t.is(deleted.status, 204);
  t.true(updates.every((response) => response.status === 200 || response.status === 404));
});

test("scheduling services: 50 parallel price-set replacements leave exactly one request's set", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}/scheduling`;
  const admin = { token: account.admin.token };
  const resources: number[] = [];
  for (const name of ["A", "B", "C", "D"]) resources.push((await h.request("POST", `${base}/resources`, { ...admin, body: { name } })).body.payload.id);
  const service = (await h.request("POST", `${base}/services`, { ...admin, body: { name: "Visit", base_price: 1000, duration_min: 30 } })).body.payload;
  // Request i prices the resources whose bit is set in i (mod 15, never empty), at a price naming the request.
  const setOf = (i: number) => resources.filter((_, bit) => ((i % 15) + 1) & (1 << bit));
  await allAtOnce((i) =>
    h.request("PATCH", `${base}/services/${service.id}`, { ...admin, body: { prices: setOf(i).map((resource_id) => ({ resource_id, price: 1000 + i })) } }),
  );
  const rows = await h.knex("scheduling_service_prices").where("service_id", service.id).select("resource_id", "price");
  const prices = new Set(rows.map((row) => Number(row.price)));
  t.is(prices.size, 1, JSON.stringify(rows));
  const i = [...prices][0]! - 1000;
  t.deepEqual(
    rows.map((row) => Number(row.resource_id)).sort((a, b) => a - b),
    setOf(i),
  );
});
