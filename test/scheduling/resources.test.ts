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

test("resource CRUD: defaults, envelope, update and delete", async (t) => {
  const create = await api.post("/resources", { name: "Dr. Aliya", specialty: "Dentist" });
  t.is(create.status, 201);
  const resource = create.body.payload;
  t.like(resource, {
    account_id: account.id,
    user_id: null,
    name: "Dr. Aliya",
    specialty: "Dentist",
    timezone: "Asia/Almaty",
    slot_duration_min: 30,
    compensation_type: "percent",
    compensation_value: 0,
    active: true,
    custom_attributes: {},
  });

  const shown = await api.get(`/resources/${resource.id}`);
  t.is(shown.status, 200);
  t.deepEqual(shown.body, { payload: resource });

  const updated = await api.patch(`/resources/${resource.id}`, {
    resource: { timezone: "europe/berlin", slot_duration_min: 45, compensation_type: "fixed", compensation_value: 5000, user_id: account.agent.id },
  });
  t.is(updated.status, 200);
  t.like(updated.body.payload, {
    timezone: "Europe/Berlin",
    slot_duration_min: 45,
    compensation_type: "fixed",
    compensation_value: 5000,
    user_id: account.agent.id,
  });

  const listed = await api.get("/resources");
  t.is(listed.status, 200);
  t.is(listed.body.meta.count, listed.body.payload.length);
  t.true(listed.body.payload.some((r: { id: number }) => r.id === resource.id));

  const removed = await api.delete(`/resources/${resource.id}`);
  t.deepEqual([removed.status, removed.body], [204, undefined]);
  t.is(await h.knex("scheduling_resources").where("id", resource.id).first(), undefined);
  const gone = await api.get(`/resources/${resource.id}`);
  t.deepEqual([gone.status, gone.body], [404, { error: "Resource not found", code: "NOT_FOUND" }]);
});

test("the list hides inactive resources unless include_inactive", async (t) => {
  const own = schedulingApi(h, await createAccount(h, "Inactive resources"));
  const active = await own.create("/resources", { name: "Active" });
  const inactive = await own.create("/resources", { name: "Inactive", active: false });
  const ids = async (query = "") => (await own.get(`/resources${query}`)).body.payload.map((r: { id: number }) => r.id);
  t.deepEqual(await ids(), [active.id]);
  t.deepEqual(await ids("?include_inactive=false"), [active.id]);
  t.deepEqual(await ids("?include_inactive=true"), [active.id, inactive.id]);
  t.deepEqual(await ids("?include_inactive=1"), [active.id, inactive.id]);
  t.is((await own.get(`/resources/${inactive.id}`)).status, 200, "an inactive resource is still shown by id");
  t.deepEqual((await own.get("/resources?include_inactive=maybe")).body.details, { include_inactive: ["is not included in the list"] });
});

test("resource validations answer 422 VALIDATION_ERROR with details per field", async (t) => {
  const cases: [unknown, Record<string, string[]>][] = [
    [{ name: "X", slot_duration_min: 4 }, { slot_duration_min: ["must be greater than or equal to 5"] }],
    [{ name: "X", slot_duration_min: 721 }, { slot_duration_min: ["must be less than or equal to 720"] }],
    [{ name: "X", timezone: "Mars/Olympus" }, { timezone: ["is not a valid IANA timezone"] }],
    [{ name: "X", timezone: "+05:00" }, { timezone: ["is not a valid IANA timezone"] }],
    [{ name: "X", compensation_value: 101 }, { compensation_value: ["must be less than or equal to 100"] }],
    [{ name: "X", compensation_type: "bonus" }, { compensation_type: ["is not included in the list"] }],
    [{ specialty: "nameless" }, { name: ["can't be blank"] }],
  ];
  for (const [body, details] of cases) {
    const response = await api.post("/resources", body);
    t.is(response.status, 422, JSON.stringify(body));
    t.is(response.body.code, "VALIDATION_ERROR");
    t.deepEqual(response.body.details, details);
    t.true(response.body.error.startsWith("Validation failed: "));
  }
  // A fixed compensation is an amount, not a percentage.
  t.is((await api.post("/resources", { name: "X", compensation_type: "fixed", compensation_value: 250000 })).status, 201);

  const stranger = await createAccount(h, "Other");
  const foreignUser = await api.post("/resources", { name: "X", user_id: stranger.agent.id });
  t.deepEqual(foreignUser.body, {
    error: "Validation failed: user_id must belong to the account",
    code: "VALIDATION_ERROR",
    details: { user_id: ["must belong to the account"] },
  });

  const resource = await api.create("/resources", { name: "Y", compensation_type: "fixed", compensation_value: 500 });
  const switched = await api.patch(`/resources/${resource.id}`, { compensation_type: "percent" });
  t.is(switched.status, 422, "the stored value 500 is no percentage");
  t.deepEqual(switched.body.details, { compensation_value: ["must be less than or equal to 100"] });
});

test("mutations need an administrator; agents read", async (t) => {
  const denied = await api.post("/resources", { name: "X" }, account.agent.token);
  t.deepEqual([denied.status, denied.body], [401, { error: "You are not authorized to do this action" }]);
  t.is((await api.post("/resources", { slot_duration_min: 1 }, account.agent.token)).status, 401, "the role is checked before the body");
  t.is((await api.get("/resources", account.agent.token)).status, 200);
  const resource = await api.create("/resources", { name: "Z" });
  t.is((await api.patch(`/resources/${resource.id}/work_rules`, { rules: [] }, account.agent.token)).status, 401);
  t.is((await api.delete(`/resources/${resource.id}`, account.agent.token)).status, 401);
  const noToken = await h.request("GET", `/api/v1/accounts/${account.id}/scheduling/resources`);
  t.is(noToken.status, 401);
});

test("another account's resources are not found", async (t) => {
  const other = await createAccount(h, "Neighbour");
  const theirs = await schedulingApi(h, other).create("/resources", { name: "Theirs" });
  t.deepEqual((await api.get(`/resources/${theirs.id}`)).body, { error: "Resource not found", code: "NOT_FOUND" });
  t.is((await api.patch(`/resources/${theirs.id}`, { name: "Mine" })).status, 404);
  t.is((await api.get(`/resources/abc`)).body.code, "NOT_FOUND");
});

test("work and break rules: PATCH replaces the whole set", async (t) => {
  const resource = await api.create("/resources", { name: "Rules" });
  const first = await api.patch(`/resources/${resource.id}/work_rules`, {
    rules: [
      { weekday: 1, start_minute: 540, end_minute: 780 },
      { weekday: 1, start_minute: 840, end_minute: 1080, active: false },
    ],
  });
  t.is(first.status, 200);
  t.is(first.body.meta.count, 2);
  t.like(first.body.payload[0], { account_id: account.id, resource_id: resource.id, weekday: 1, start_minute: 540, end_minute: 780, active: true });
  t.false(first.body.payload[1].active);

  const second = await api.patch(`/resources/${resource.id}/work_rules`, { work_rules: [{ weekday: 0, start_minute: 0, end_minute: 1440 }] });
  t.is(second.status, 200);
  t.deepEqual(
    (await api.get(`/resources/${resource.id}/work_rules`)).body.payload.map((r: { weekday: number }) => r.weekday),
    [0],
  );
  t.deepEqual(await h.knex("scheduling_work_rules").where("resource_id", resource.id).count("id as n"), [{ n: 1 }]);

  const breaks = await api.patch(`/resources/${resource.id}/break_rules`, [{ weekday: 2, start_minute: 780, end_minute: 840, title: "Lunch" }]);
  t.is(breaks.status, 200);
  t.like(breaks.body.payload[0], { weekday: 2, start_minute: 780, end_minute: 840, title: "Lunch", active: true });
});

test("rule validations: minute bounds, order, weekday and uniqueness; nothing is written on failure", async (t) => {
  const resource = await api.create("/resources", { name: "Strict" });
  await api.patch(`/resources/${resource.id}/work_rules`, { rules: [{ weekday: 3, start_minute: 600, end_minute: 700 }] });
  const cases: [unknown, Record<string, string[]>][] = [
    [{ weekday: 1, start_minute: 1440, end_minute: 1440 }, { "rules.0.start_minute": ["must be less than or equal to 1439"] }],
    [{ weekday: 1, start_minute: 0, end_minute: 0 }, { "rules.0.end_minute": ["must be greater than or equal to 1"] }],
    [{ weekday: 1, start_minute: 0, end_minute: 1441 }, { "rules.0.end_minute": ["must be less than or equal to 1440"] }],
    [{ weekday: 1, start_minute: 600, end_minute: 600 }, { "rules.0.end_minute": ["must be greater than start minute"] }],
    [{ weekday: 7, start_minute: 600, end_minute: 700 }, { "rules.0.weekday": ["must be less than or equal to 6"] }],
  ];
  for (const [rule, details] of cases) {
    const response = await api.patch(`/resources/${resource.id}/work_rules`, { rules: [rule] });
    t.is(response.status, 422);
    t.deepEqual({ code: response.body.code, details: response.body.details }, { code: "VALIDATION_ERROR", details });
  }
  const duplicate = await api.patch(`/resources/${resource.id}/break_rules`, {
    rules: [
      { weekday: 1, start_minute: 600, end_minute: 700 },
      { weekday: 1, start_minute: 600, end_minute: 700 },
    ],
  });
  t.deepEqual(duplicate.body.details, { "rules.1.weekday": ["has already been taken"] });
  t.deepEqual(
    (await api.get(`/resources/${resource.id}/work_rules`)).body.payload.map((r: { start_minute: number }) => r.start_minute),
    [600],
    "the previous set is intact",
  );
  t.is((await api.get(`/resources/999999/work_rules`)).status, 404);
});

test("the scheduling feature flag gates the area", async (t) => {
  const flagged = await createAccount(h, "No scheduling");
  const toggled = await h.request("PATCH", `/platform/api/v1/accounts/${flagged.id}`, { token: h.platformToken, body: { features: { scheduling: false } } });
  t.is(toggled.status, 200);
  const response = await schedulingApi(h, flagged).get("/resources");
  t.deepEqual([response.status, response.body], [403, { error: "Scheduling is not enabled for this account", code: "FEATURE_DISABLED" }]);
});
