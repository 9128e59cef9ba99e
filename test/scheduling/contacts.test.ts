import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { schedulingApi } from "./support";

const h = useHarness(test);
let account: TestAccount;
let api: ReturnType<typeof schedulingApi>;
test.before(async () => {
  account = await createAccount(h);
  api = schedulingApi(h, account);
});

test("S3 creates an ordinary contact; birth date and gender come from a valid IIN", async (t) => {
  const response = await api.post("/contacts", { full_name: "Aidos Seitkali", phone: "8 (701) 234-56-78", iin: "940720300129" }, account.agent.token);
  t.is(response.status, 201);
  const contact = response.body.payload;
  t.deepEqual(contact, {
    id: contact.id,
    account_id: account.id,
    company_id: null,
    full_name: "Aidos Seitkali",
    phone: "+77012345678",
    identifier: "940720300129",
    gender: "male",
    birth_date: "1994-07-20",
    custom_attributes: { iin: "940720300129", birth_date: "1994-07-20", gender: "male" },
  });
  const row = await h.knex("contacts").where("id", contact.id).first();
  t.like(row, { account_id: account.id, name: "Aidos Seitkali", phone_number: "+77012345678", identifier: "940720300129" });
});

test("S3 enriches the contact with the same identifier or phone instead of duplicating it", async (t) => {
  const first = await api.create("/contacts", { name: "Dana", phone_number: "7017654321" });
  t.is(first.phone, "+77017654321");
  const again = await api.post("/contacts", { contact: { phone: "+7 701 765 43 21", company_id: 42, custom_attributes: { vip: true } } });
  t.is(again.status, 200);
  t.like(again.body.payload, { id: first.id, full_name: "Dana", company_id: 42, custom_attributes: { company_id: 42, vip: true } });
  const byIdentifier = await api.post("/contacts", { identifier: "passport-N123", phone: "7017654321", gender: "female", birth_date: "1990-01-31" });
  t.is(byIdentifier.status, 200);
  t.like(byIdentifier.body.payload, { id: first.id, identifier: "passport-N123", gender: "female", birth_date: "1990-01-31" });
  t.like((await api.get(`/contacts/${first.id}`)).body.payload, { identifier: "passport-N123", custom_attributes: { vip: true } });
});

test("an explicit birth date and gender win over the IIN's", async (t) => {
  const contact = await api.create("/contacts", { name: "Explicit", iin: "940720300129-", identifier: "emp-1", gender: "other", birth_date: "1994-07-21" });
  t.like(contact, { identifier: "emp-1", gender: "other", birth_date: "1994-07-21", custom_attributes: { iin: "940720300129" } });
});

test("a 12-digit iin with a wrong check digit is refused with INVALID_IIN, and nothing is stored", async (t) => {
  const response = await api.post("/contacts", { name: "Bad", iin: "940720300128" });
  t.deepEqual([response.status, response.body], [422, { error: "IIN checksum is invalid", code: "INVALID_IIN" }]);
  t.deepEqual(await h.knex("contacts").where({ account_id: account.id, name: "Bad" }), []);
});

test("identifier is a free identifier, as in the fork: 12 digits there are neither checked nor read as an IIN", async (t) => {
  const own = schedulingApi(h, await createAccount(h, "Free identifiers"));
  const response = await own.post("/contacts", { name: "Card 12", identifier: "9407 2030 0128" });
  t.is(response.status, 201);
  t.like(response.body.payload, { identifier: "9407 2030 0128", birth_date: null, gender: null, custom_attributes: {} });
  const valid = await own.create("/contacts", { name: "Valid 12", identifier: "940720300129" });
  t.like(valid, { identifier: "940720300129", birth_date: null, gender: null, custom_attributes: {} });
});

test("the IIN's birth date and gender never replace values given in the request", async (t) => {
  const own = schedulingApi(h, await createAccount(h, "Given values"));
  const inAttributes = await own.create("/contacts", {
    name: "Attributes",
    iin: "940720300129",
    custom_attributes: { birth_date: "1994-07-19", gender: "other" },
  });
  t.like(inAttributes, { birth_date: "1994-07-19", gender: "other", custom_attributes: { iin: "940720300129", birth_date: "1994-07-19", gender: "other" } });
  const halfGiven = await own.create("/contacts", { name: "Half", iin: "050101600007", gender: "unknown" });
  t.like(halfGiven, { birth_date: "2005-01-01", gender: "unknown" }, "only the missing birth date is derived");
});

test("the IIN's birth date and gender never replace values the contact already holds", async (t) => {
  const own = schedulingApi(h, await createAccount(h, "Known contacts"));
  const known = await own.create("/contacts", { name: "Known", phone: "7012220000", birth_date: "1990-01-31", gender: "female" });
  const enriched = await own.post("/contacts", { phone: "7012220000", iin: "940720300129" });
  t.is(enriched.status, 200);
  t.like(enriched.body.payload, {
    id: known.id,
    identifier: "940720300129",
    birth_date: "1990-01-31",
    gender: "female",
    custom_attributes: { iin: "940720300129" },
  });

  const genderOnly = await own.create("/contacts", { name: "Gender only", custom_attributes: { gender: "other" } });
  const patched = await own.patch(`/contacts/${genderOnly.id}`, { iin: "911211-300456" });
  t.like(patched.body.payload, { identifier: "911211300456", birth_date: "1991-12-11", gender: "other" }, "the gap is filled, the known gender kept");
  t.like((await own.get(`/contacts/${genderOnly.id}`)).body.payload, { birth_date: "1991-12-11", gender: "other" });

  const corrected = await own.patch(`/contacts/${genderOnly.id}`, { iin: "911211300456", birth_date: "1991-12-12" });
  t.like(corrected.body.payload, { birth_date: "1991-12-12", gender: "other" }, "an explicit value still replaces the stored one");
});

test("contact validation errors", async (t) => {
  const phone = await api.post("/contacts", { name: "X", phone: "12345" });
  t.deepEqual(
    [phone.status, phone.body],
    [422, { error: "Validation failed: phone is invalid", code: "VALIDATION_ERROR", details: { phone: ["is invalid"] } }],
  );
  t.deepEqual((await api.post("/contacts", { name: "X", birth_date: "1990-02-30" })).body.details, { birth_date: ["is not a valid date"] });
  for (const birth_date of ["tomorrow", "", "1990/02/01", "1990-2-1"]) {
    const created = await api.post("/contacts", { name: "X", birth_date });
    t.is(created.status, 422, JSON.stringify(birth_date));
    t.deepEqual(created.body.details, { birth_date: ["is not a valid date"] }, JSON.stringify(birth_date));
  }
  const known = await api.create("/contacts", { name: "Dated" });
  t.deepEqual((await api.patch(`/contacts/${known.id}`, { birth_date: "tomorrow" })).body.details, { birth_date: ["is not a valid date"] });
  t.deepEqual((await api.post("/contacts", { name: "X", company_id: "acme" })).body.details, { company_id: ["must be of type number"] });
  t.is((await api.patch("/contacts/999999", { name: "X" })).body.code, "NOT_FOUND");
});

test("list and search: name, phone or identifier; limit clamped to 1..100", async (t) => {
  const other = await createAccount(h, "Search");
  const search = schedulingApi(h, other);
  await search.create("/contacts", { name: "Madina Ospanova", phone: "7010000001" });
  await search.create("/contacts", { name: "Marat Ospanov", phone: "7010000002", identifier: "card_100%" });
  await search.create("/contacts", { name: "Zarina", phone: "7010000003" });

  const byName = await search.get("/contacts?search=ospan");
  t.is(byName.status, 200);
  t.deepEqual(byName.body.payload.map((c: { full_name: string }) => c.full_name).sort(), ["Madina Ospanova", "Marat Ospanov"]);
  t.is(byName.body.meta.count, 2);
  t.deepEqual(
    (await search.get("/contacts?search=0000003")).body.payload.map((c: { full_name: string }) => c.full_name),
    ["Zarina"],
  );
  t.deepEqual(
    (await search.get("/contacts?search=100%25")).body.payload.map((c: { full_name: string }) => c.full_name),
    ["Marat Ospanov"],
    "% is literal",
  );
  t.is((await search.get("/contacts")).body.meta.count, 3);
  t.is((await search.get("/contacts?limit=0")).body.meta.count, 1);
  t.is((await search.get("/contacts?limit=1000")).body.meta.count, 3);
  t.deepEqual((await search.get("/contacts?limit=many")).body.details, { limit: ["must be of type number"] });

  const renamed = await search.patch(`/contacts/${byName.body.payload[0].id}`, { full_name: "Renamed", iin: "940720300129" });
  t.like(renamed.body.payload, { full_name: "Renamed", identifier: "940720300129", birth_date: "1994-07-20" });
});

test("contacts raise Chatwoot's contact_created and contact_updated in the outbox, none when nothing changes", async (t) => {
  const own = await createAccount(h, "Contact events");
  const ownApi = schedulingApi(h, own);
  const eventsOf = (name: string) => h.knex("events").where({ account_id: own.id, name }).orderBy("id");

  // iin, birth_date and gender have no custom attribute definitions, and need none here.
  const created = await ownApi.post("/contacts", { full_name: "Aidos Seitkali", phone: "87012345678", iin: "940720300129" });
  t.is(created.status, 201);
  const contactId = created.body.payload.id;
  const [createdEvent, ...moreCreated] = await eventsOf("contact_created");
  t.deepEqual(moreCreated, []);
  t.deepEqual(createdEvent.payload, {
    event: "contact_created",
    account: { id: own.id, name: "Contact events" },
    additional_attributes: {},
    avatar: "",
    custom_attributes: { iin: "940720300129", birth_date: "1994-07-20", gender: "male" },
    email: null,
    id: contactId,
    identifier: "940720300129",
    name: "Aidos Seitkali",
    phone_number: "+77012345678",
    thumbnail: "",
    blocked: false,
  });
  t.deepEqual(await eventsOf("contact_updated"), []);

  const enriched = await ownApi.post("/contacts", { phone: "+7 701 234 56 78", company_id: 7, custom_attributes: { vip: true } });
  t.deepEqual([enriched.status, enriched.body.payload.id], [200, contactId]);
  const [updatedEvent, ...moreUpdated] = await eventsOf("contact_updated");
  t.deepEqual(moreUpdated, []);
  t.like(updatedEvent.payload, { event: "contact_updated", id: contactId, name: "Aidos Seitkali", custom_attributes: { company_id: 7, vip: true } });
  const entries = updatedEvent.payload.changed_attributes as Record<string, unknown>[];
  t.deepEqual(
    entries.map((entry) => Object.keys(entry)),
    [["custom_attributes"], ["updated_at"]],
  );
  t.deepEqual(entries[0]!.custom_attributes, {
    previous_value: { iin: "940720300129", birth_date: "1994-07-20", gender: "male" },
    current_value: { iin: "940720300129", birth_date: "1994-07-20", gender: "male", company_id: 7, vip: true },
  });

  const renamed = await ownApi.patch(`/contacts/${contactId}`, { full_name: "Aidos S." });
  t.is(renamed.status, 200);
  const renameEvent = (await eventsOf("contact_updated"))[1];
  t.deepEqual(renameEvent.payload.changed_attributes[0], { name: { previous_value: "Aidos Seitkali", current_value: "Aidos S." } });

  t.is((await ownApi.post("/contacts", { full_name: "Aidos S.", phone: "87012345678" })).status, 200);
  t.is((await ownApi.patch(`/contacts/${contactId}`, { iin: "940720300129" })).status, 200);
  t.is((await eventsOf("contact_updated")).length, 2, "a POST or PATCH that changes nothing records no event");
  t.is((await eventsOf("contact_created")).length, 1);
});

test("enriching a contact with another contact's phone is refused in the scheduling shape, and records nothing", async (t) => {
  const own = await createAccount(h, "Contact conflicts");
  const ownApi = schedulingApi(h, own);
  await ownApi.create("/contacts", { name: "Phone owner", phone: "7011111111" });
  const other = await ownApi.create("/contacts", { name: "Card holder", identifier: "card-1" });
  const before = await h.knex("events").where({ account_id: own.id }).count<{ count: string }[]>("* as count");

  const response = await ownApi.post("/contacts", { identifier: "card-1", phone: "7011111111" });
  t.deepEqual(
    [response.status, response.body],
    [422, { error: "Validation failed: phone_number has already been taken", code: "VALIDATION_ERROR", details: { phone_number: ["has already been taken"] } }],
  );
  t.like(await h.knex("contacts").where("id", other.id).first(), { phone_number: null });
  t.deepEqual(await h.knex("events").where({ account_id: own.id }).count<{ count: string }[]>("* as count"), before);
});
