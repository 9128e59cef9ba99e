import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { schedulingApi } from "./support";

const h = useHarness(test);
let account: TestAccount;
let api: ReturnType<typeof schedulingApi>;
let resourceId: number;
test.before(async () => {
  account = await createAccount(h);
  api = schedulingApi(h, account);
  resourceId = (await api.create("/resources", { name: "Dr. Exceptions" })).id;
});

test("holidays: create, list, update, delete", async (t) => {
  const create = await api.post("/holidays", { holiday: { date: "2026-03-08", title: "Women's Day", recurring_yearly: true } });
  t.is(create.status, 201);
  const holiday = create.body.payload;
  t.deepEqual(holiday, {
    id: holiday.id,
    account_id: account.id,
    date: "2026-03-08",
    title: "Women's Day",
    recurring_yearly: true,
    working_day_override: false,
    custom_attributes: {},
  });
  const listed = await api.get("/holidays");
  t.deepEqual(listed.body, { payload: [holiday], meta: { count: 1 } });
  const updated = await api.patch(`/holidays/${holiday.id}`, { working_day_override: true });
  t.like(updated.body.payload, { working_day_override: true, date: "2026-03-08" });
  const removed = await api.delete(`/holidays/${holiday.id}`);
  t.deepEqual([removed.status, removed.body], [204, undefined]);
  t.is((await api.patch(`/holidays/${holiday.id}`, { title: "x" })).status, 404);
});

test("holiday validations", async (t) => {
  t.deepEqual((await api.post("/holidays", { title: "No date" })).body.details, { date: ["can't be blank"] });
  t.deepEqual((await api.post("/holidays", { date: "2026-02-30", title: "Never" })).body.details, { date: ["is not a valid date"] });
  t.deepEqual((await api.post("/holidays", { date: "2026-03-01" })).body.details, { title: ["can't be blank"] });
  t.is((await api.post("/holidays", { date: "2026-03-01", title: "x" }, account.agent.token)).status, 401);
});

test("malformed dates on holidays and workday overrides answer 422 on create and update, never 500", async (t) => {
  // An account of its own: the other tests count this account's rows.
  const api = schedulingApi(h, await createAccount(h));
  const resourceId = (await api.create("/resources", { name: "Dr. Dates" })).id;
  const holiday = await api.create("/holidays", { date: "2026-05-01", title: "Labour Day" });
  const override = await api.create("/workday_overrides", { resource_id: resourceId, date: "2026-05-02", start_minute: 600, end_minute: 900 });
  for (const date of ["tomorrow", "", "2027/06/01", "2027-6-1", "99999-01-01", "2027-13-01", 20270601, null]) {
    const cases = [
      await api.post("/holidays", { date, title: "Bad" }),
      await api.patch(`/holidays/${holiday.id}`, { date }),
      await api.post("/workday_overrides", { resource_id: resourceId, date, start_minute: 600, end_minute: 900 }),
      await api.patch(`/workday_overrides/${override.id}`, { date }),
    ];
    for (const response of cases) {
      t.is(response.status, 422, `${JSON.stringify(date)}: ${JSON.stringify(response.body)}`);
      t.truthy(response.body.details?.date, JSON.stringify(date));
    }
  }
  t.like(
    (await api.get("/holidays")).body.payload.find((row: { id: number }) => row.id === holiday.id),
    { date: "2026-05-01" },
  );
});

test("workday overrides: one per resource and date, break inside the hours", async (t) => {
  const create = await api.post("/workday_overrides", {
    resource_id: resourceId,
    date: "2026-03-10",
    start_minute: 600,
    end_minute: 900,
    break_start_minute: 720,
    break_end_minute: 750,
    break_title: "Lunch",
  });
  t.is(create.status, 201);
  t.like(create.body.payload, {
    resource_id: resourceId,
    date: "2026-03-10",
    start_minute: 600,
    end_minute: 900,
    break_start_minute: 720,
    break_end_minute: 750,
    break_title: "Lunch",
  });

  const duplicate = await api.post("/workday_overrides", { resource_id: resourceId, date: "2026-03-10", start_minute: 600, end_minute: 700 });
  t.deepEqual([duplicate.status, duplicate.body.code, duplicate.body.details], [422, "VALIDATION_ERROR", { date: ["has already been taken"] }]);

  const halfBreak = await api.post("/workday_overrides", {
    resource_id: resourceId,
    date: "2026-03-11",
    start_minute: 600,
    end_minute: 900,
    break_start_minute: 700,
  });
  t.deepEqual(halfBreak.body.details, { break_end_minute: ["must be given together with the other break minute"] });
  const outside = await api.post("/workday_overrides", {
    resource_id: resourceId,
    date: "2026-03-11",
    start_minute: 600,
    end_minute: 900,
    break_start_minute: 500,
    break_end_minute: 650,
  });
  t.deepEqual(outside.body.details, { break_start_minute: ["must lie within the working hours"] });
  const reversed = await api.post("/workday_overrides", { resource_id: resourceId, date: "2026-03-11", start_minute: 900, end_minute: 600 });
  t.deepEqual(reversed.body.details, { end_minute: ["must be greater than start minute"] });
  const unknownResource = await api.post("/workday_overrides", { resource_id: 999999, date: "2026-03-11", start_minute: 600, end_minute: 900 });
  t.deepEqual(unknownResource.body.details, { resource_id: ["must exist"] });

  const narrowed = await api.patch(`/workday_overrides/${create.body.payload.id}`, { end_minute: 700 });
  t.deepEqual(narrowed.body.details, { break_start_minute: ["must lie within the working hours"] }, "the stored break no longer fits");
  const cleared = await api.patch(`/workday_overrides/${create.body.payload.id}`, { end_minute: 700, break_start_minute: null, break_end_minute: null });
  t.like(cleared.body.payload, { end_minute: 700, break_start_minute: null, break_end_minute: null });

  t.is((await api.get(`/workday_overrides?resource_id=${resourceId}`)).body.meta.count, 1);
  t.is((await api.delete(`/workday_overrides/${create.body.payload.id}`)).status, 204);
});

test("time off: per resource or account-wide; S5 update keeps starts before ends", async (t) => {
  const own = await api.post("/time_offs", {
    resource_id: resourceId,
    kind: "vacation",
    starts_at: "2026-03-16T00:00:00+05:00",
    ends_at: "2026-03-21T00:00:00+05:00",
    title: "Spring break",
  });
  t.is(own.status, 201);
  t.deepEqual(own.body.payload, {
    id: own.body.payload.id,
    account_id: account.id,
    resource_id: resourceId,
    kind: "vacation",
    starts_at: "2026-03-15T19:00:00.000Z",
    ends_at: "2026-03-20T19:00:00.000Z",
    title: "Spring break",
    notes: null,
    custom_attributes: {},
  });
  const everyone = await api.create("/time_offs", { kind: "day_off", starts_at: "2026-03-22", ends_at: "2026-03-23" });
  t.is(everyone.resource_id, null);
  t.is(everyone.starts_at, "2026-03-21T19:00:00.000Z", "a bare date is midnight in Asia/Almaty");

  const updated = await api.patch(`/time_offs/${own.body.payload.id}`, { time_off: { kind: "sick_leave", notes: "flu", ends_at: "2026-03-18T00:00:00Z" } });
  t.is(updated.status, 200);
  t.like(updated.body.payload, { kind: "sick_leave", notes: "flu", ends_at: "2026-03-18T00:00:00.000Z", starts_at: "2026-03-15T19:00:00.000Z" });

  const backwards = await api.patch(`/time_offs/${own.body.payload.id}`, { ends_at: "2026-03-01T00:00:00Z" });
  t.deepEqual([backwards.status, backwards.body.details], [422, { ends_at: ["must be after starts_at"] }]);
  const garbage = await api.patch(`/time_offs/${own.body.payload.id}`, { starts_at: "next tuesday" });
  t.deepEqual(garbage.body.details, { starts_at: ["is not a valid date-time"] });
  t.deepEqual((await api.post("/time_offs", { starts_at: "2026-03-01", ends_at: "2026-03-02" })).body.details, { kind: ["can't be blank"] });

  const made_global = await api.patch(`/time_offs/${own.body.payload.id}`, { resource_id: null });
  t.is(made_global.body.payload.resource_id, null);
  t.is((await api.delete(`/time_offs/${everyone.id}`)).status, 204);
  t.is((await api.patch(`/time_offs/${everyone.id}`, { kind: "x" })).status, 404);
  t.is((await api.post("/time_offs", { kind: "x", starts_at: "2026-03-01", ends_at: "2026-03-02" }, account.agent.token)).status, 401);
});

test("time off list filters as the fork's: exactly that resource_id, and starts_at within [from, to)", async (t) => {
  const own = schedulingApi(h, await createAccount(h, "Time off filters"));
  const resource = await own.create("/resources", { name: "Filtered" });
  const mine = await own.create("/time_offs", {
    resource_id: resource.id,
    kind: "vacation",
    starts_at: "2026-04-01T09:00:00+05:00",
    ends_at: "2026-04-03T09:00:00+05:00",
  });
  const global = await own.create("/time_offs", { kind: "day_off", starts_at: "2026-04-02T00:00:00+05:00", ends_at: "2026-04-05T00:00:00+05:00" });
  const later = await own.create("/time_offs", {
    resource_id: resource.id,
    kind: "other",
    starts_at: "2026-05-01T09:00:00+05:00",
    ends_at: "2026-05-01T10:00:00+05:00",
  });
  const ids = async (query: string) => (await own.get(`/time_offs${query}`)).body.payload.map((row: { id: number }) => row.id);

  t.deepEqual(await ids(""), [mine.id, global.id, later.id], "ordered by starts_at");
  t.deepEqual(await ids(`?resource_id=${resource.id}`), [mine.id, later.id], "account-wide rows only without resource_id");
  t.deepEqual(await ids("?from=2026-04-02T00:00:00%2B05:00"), [global.id, later.id], "from is inclusive on starts_at");
  t.deepEqual(await ids("?to=2026-04-02T00:00:00%2B05:00"), [mine.id], "to is exclusive on starts_at");
  t.deepEqual(await ids(`?resource_id=${resource.id}&from=2026-04-01&to=2026-04-30`), [mine.id], "a bare date is midnight in Asia/Almaty");
  t.deepEqual((await own.get("/time_offs?from=someday")).body.details, { from: ["is not a valid date-time"] });
});

test("holiday, workday override and time off mutations need an administrator, checked before the body", async (t) => {
  const own = await createAccount(h, "Exception roles");
  const ownApi = schedulingApi(h, own);
  const agent = own.agent.token;
  const resource = await ownApi.create("/resources", { name: "Guarded" });
  const holiday = await ownApi.create("/holidays", { date: "2026-05-01", title: "Unity Day" });
  const override = await ownApi.create("/workday_overrides", { resource_id: resource.id, date: "2026-05-04", start_minute: 600, end_minute: 900 });
  const timeOff = await ownApi.create("/time_offs", { resource_id: resource.id, kind: "vacation", starts_at: "2026-05-05", ends_at: "2026-05-06" });
  const overrideBody = { resource_id: resource.id, date: "2026-05-06", start_minute: 600, end_minute: 900 };

  const attempts: [string, () => Promise<{ status: number; body: unknown }>][] = [
    ["PATCH holiday", () => ownApi.patch(`/holidays/${holiday.id}`, { title: "Renamed" }, agent)],
    ["PATCH holiday, invalid body", () => ownApi.patch(`/holidays/${holiday.id}`, { date: "2026-02-30" }, agent)],
    ["DELETE holiday", () => ownApi.delete(`/holidays/${holiday.id}`, agent)],
    ["POST override", () => ownApi.post("/workday_overrides", overrideBody, agent)],
    ["POST override, invalid body", () => ownApi.post("/workday_overrides", { start_minute: 2000 }, agent)],
    ["PATCH override", () => ownApi.patch(`/workday_overrides/${override.id}`, { end_minute: 960 }, agent)],
    ["PATCH override, invalid body", () => ownApi.patch(`/workday_overrides/${override.id}`, { end_minute: 0 }, agent)],
    ["DELETE override", () => ownApi.delete(`/workday_overrides/${override.id}`, agent)],
    ["PATCH time off", () => ownApi.patch(`/time_offs/${timeOff.id}`, { kind: "sick_leave" }, agent)],
    ["PATCH time off, invalid body", () => ownApi.patch(`/time_offs/${timeOff.id}`, { starts_at: "never" }, agent)],
    ["DELETE time off", () => ownApi.delete(`/time_offs/${timeOff.id}`, agent)],
  ];
  for (const [what, attempt] of attempts) {
    const response = await attempt();
    t.deepEqual([response.status, response.body], [401, { error: "You are not authorized to do this action" }], what);
  }

  t.deepEqual((await ownApi.get("/holidays", agent)).body.payload, [holiday], "agents still read");
  t.deepEqual((await ownApi.get("/workday_overrides", agent)).body.payload, [override]);
  t.deepEqual((await ownApi.get("/time_offs", agent)).body.payload, [timeOff]);
});
