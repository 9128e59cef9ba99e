import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { schedulingApi } from "./support";

const h = useHarness(test);

const MONDAY = "from=2037-03-02&to=2037-03-03";

/** An account with one Almaty resource working Mon–Fri 09:00–18:00 with a 13:00–14:00 break. */
async function clinic(): Promise<{ account: TestAccount; api: ReturnType<typeof schedulingApi>; resource: { id: number } }> {
  const account = await createAccount(h, "Clinic");
  const api = schedulingApi(h, account);
  const resource = await api.create("/resources", { name: "Dr. Calendar" });
  const weekdays = [1, 2, 3, 4, 5];
  await api.patch(`/resources/${resource.id}/work_rules`, { rules: weekdays.map((weekday) => ({ weekday, start_minute: 540, end_minute: 1080 })) });
  await api.patch(`/resources/${resource.id}/break_rules`, { rules: weekdays.map((weekday) => ({ weekday, start_minute: 780, end_minute: 840 })) });
  return { account, api, resource };
}

async function insertAppointment(account: TestAccount, resourceId: number, startsAt: string, endsAt: string, status = "scheduled") {
  const [row] = await h
    .knex("scheduling_appointments")
    .insert({ account_id: account.id, resource_id: resourceId, starts_at: startsAt, ends_at: endsAt, duration_min: 30, status, client_name: "Client" })
    .returning("*");
  return row;
}

test("S1 payload: every key, the echoed range, and slots in the resource's offset", async (t) => {
  const { api, resource } = await clinic();
  const response = await api.get(`/calendar?view=day&${MONDAY}&include_slots=true`);
  t.is(response.status, 200);
  const payload = response.body.payload;
  t.deepEqual(Object.keys(payload).sort(), [
    "appointments",
    "break_rules",
    "expenses",
    "holidays",
    "payments",
    "range",
    "resources",
    "slots",
    "time_offs",
    "view",
    "work_rules",
    "workday_overrides",
  ]);
  t.is(payload.view, "day");
  t.deepEqual(payload.range, { from: "2037-03-02T00:00:00+05:00", to: "2037-03-03T00:00:00+05:00" });
  t.is(payload.resources[0].id, resource.id);
  t.is(payload.work_rules.length, 5);
  t.is(payload.break_rules.length, 5);
  t.deepEqual([payload.appointments, payload.payments, payload.expenses], [[], [], []]);
  t.is(payload.slots.length, 86);
  t.deepEqual(payload.slots[0], {
    resource_id: resource.id,
    starts_at: "2037-03-02T09:00:00+05:00",
    ends_at: "2037-03-02T09:30:00+05:00",
    status: "available",
  });
  t.deepEqual(payload.slots[1].starts_at, "2037-03-02T09:05:00+05:00");
  t.is(payload.slots.at(-1).ends_at, "2037-03-02T18:00:00+05:00");

  const week = await api.get(`/calendar?from=2037-03-02T00:00:00%2B05:00&to=2037-03-09T00:00:00%2B05:00`);
  t.is(week.body.payload.view, "week", "week is the default view");
  t.deepEqual(week.body.payload.slots, [], "no slots unless asked for");

  const hourly = await api.get(`/calendar?${MONDAY}&include_slots=1&duration_min=60`);
  t.is(hourly.body.payload.slots.length, 2 * ((240 - 60) / 5 + 1));
});

test("S1 query validation and unknown resources", async (t) => {
  const { api } = await clinic();
  const missing = await api.get("/calendar");
  t.deepEqual([missing.status, missing.body.code, missing.body.details], [422, "VALIDATION_ERROR", { from: ["can't be blank"], to: ["can't be blank"] }]);
  t.deepEqual((await api.get(`/calendar?view=year&${MONDAY}`)).body.details, { view: ["is not included in the list"] });
  t.deepEqual((await api.get(`/calendar?${MONDAY}&duration_min=4`)).body.details, { duration_min: ["must be greater than or equal to 5"] });
  t.deepEqual((await api.get(`/calendar?from=2037-03-03&to=2037-03-02`)).body.details, { to: ["must be after from"] });
  t.deepEqual((await api.get(`/calendar?from=2037-01-01&to=2037-12-31`)).body.details, { to: ["must be at most 92 days after from"] });
  t.deepEqual((await api.get(`/calendar?from=soon&to=2037-03-02`)).body.details, { from: ["is not a valid date-time"] });
  t.deepEqual((await api.get(`/calendar?${MONDAY}&resource_ids=1,x`)).body.details, { resource_ids: ["must be comma-separated ids"] });
  t.deepEqual((await api.get(`/calendar?${MONDAY}&resource_ids=999999`)).body, { error: "Resource not found", code: "NOT_FOUND" });
});

test("slots honour holidays, overrides cancelling them, time off and live appointments", async (t) => {
  const { account, api, resource } = await clinic();
  const other = await api.create("/resources", { name: "Other" });
  const slotsOn = async (query = MONDAY) =>
    (await api.get(`/calendar?${query}&include_slots=true&resource_ids=${resource.id}`)).body.payload.slots.map((s: { starts_at: string }) =>
      s.starts_at.slice(11, 16),
    );

  const holiday = await api.create("/holidays", { date: "2020-03-02", title: "Yearly", recurring_yearly: true });
  t.deepEqual(await slotsOn(), [], "a recurring holiday closes the day in any year");

  const override = await api.create("/workday_overrides", { resource_id: resource.id, date: "2037-03-02", start_minute: 600, end_minute: 690 });
  t.deepEqual((await slotsOn()).slice(0, 2), ["10:00", "10:05"], "an override cancels the holiday");
  t.is((await slotsOn()).length, (90 - 30) / 5 + 1);
  await api.delete(`/workday_overrides/${override.id}`);
  await api.patch(`/holidays/${holiday.id}`, { working_day_override: true });
  t.is((await slotsOn()).length, 86, "a working-day holiday is scheduled from the weekly rules");

  await api.create("/time_offs", { kind: "day_off", starts_at: "2037-03-02T09:00:00+05:00", ends_at: "2037-03-02T12:00:00+05:00" });
  const afterTimeOff = await slotsOn();
  t.is(afterTimeOff[0], "12:00", "account-wide time off applies to every resource");

  const booked = await insertAppointment(account, resource.id, "2037-03-02T10:00:00Z", "2037-03-02T11:00:00Z");
  await insertAppointment(account, resource.id, "2037-03-02T11:00:00Z", "2037-03-02T11:30:00Z", "cancelled");
  await insertAppointment(account, other.id, "2037-03-02T12:00:00Z", "2037-03-02T12:30:00Z");
  const calendar = (await api.get(`/calendar?${MONDAY}&include_slots=true&resource_ids=${resource.id}`)).body.payload;
  const starts = calendar.slots.map((s: { starts_at: string }) => s.starts_at.slice(11, 16));
  t.false(starts.includes("15:00"), "15:00–16:00 Almaty is booked");
  t.true(starts.includes("14:30") && starts.includes("16:00"));
  t.true(starts.includes("16:05"), "the cancelled appointment does not block");
  t.deepEqual(
    calendar.appointments.map((a: { id: number; status: string }) => a.status),
    ["scheduled", "cancelled"],
    "only the requested resource's appointments, cancelled ones included",
  );
  t.like(calendar.appointments[0], { id: booked.id, resource_id: resource.id, starts_at: "2037-03-02T10:00:00.000Z", payments: [], expense: null });
});

test("an inactive resource is listed (for its bookings) but offers no slots", async (t) => {
  const { api, resource } = await clinic();
  await api.patch(`/resources/${resource.id}`, { active: false });
  const payload = (await api.get(`/calendar?${MONDAY}&include_slots=true`)).body.payload;
  t.deepEqual(
    payload.resources.map((r: { id: number; active: boolean }) => [r.id, r.active]),
    [[resource.id, false]],
  );
  t.deepEqual(payload.slots, []);
});

test("resources sharing slot times each get their own id and their own slot length", async (t) => {
  const { api, resource } = await clinic();
  const twin = await api.create("/resources", { name: "Twin" });
  const hourly = await api.create("/resources", { name: "Hourly", slot_duration_min: 60 });
  for (const other of [twin, hourly]) {
    await api.patch(`/resources/${other.id}/work_rules`, { rules: [{ weekday: 1, start_minute: 540, end_minute: 1080 }] });
    await api.patch(`/resources/${other.id}/break_rules`, { rules: [{ weekday: 1, start_minute: 780, end_minute: 840 }] });
  }
  const slots: { resource_id: number; starts_at: string; ends_at: string }[] = (await api.get(`/calendar?${MONDAY}&include_slots=true`)).body.payload.slots;
  const of = (id: number) => slots.filter((s) => s.resource_id === id);
  t.is(slots.length, 86 + 86 + 2 * ((240 - 60) / 5 + 1));
  t.deepEqual(
    of(twin.id).map(({ starts_at, ends_at }) => ({ starts_at, ends_at })),
    of(resource.id).map(({ starts_at, ends_at }) => ({ starts_at, ends_at })),
  );
  t.deepEqual(of(hourly.id)[0], { resource_id: hourly.id, starts_at: "2037-03-02T09:00:00+05:00", ends_at: "2037-03-02T10:00:00+05:00", status: "available" });
  t.true(of(hourly.id).every((s) => Date.parse(s.ends_at) - Date.parse(s.starts_at) === 3_600_000));
});

test("the database refuses two live appointments of one resource that overlap", async (t) => {
  const { account, resource } = await clinic();
  await insertAppointment(account, resource.id, "2037-03-03T04:00:00Z", "2037-03-03T05:00:00Z");
  const error = await t.throwsAsync(insertAppointment(account, resource.id, "2037-03-03T04:30:00Z", "2037-03-03T05:30:00Z"));
  t.is((error as unknown as { code: string }).code, "23P01");
  await t.notThrowsAsync(insertAppointment(account, resource.id, "2037-03-03T05:00:00Z", "2037-03-03T05:30:00Z"), "back to back is fine");
  await t.notThrowsAsync(insertAppointment(account, resource.id, "2037-03-03T04:30:00Z", "2037-03-03T05:30:00Z", "cancelled"));
});

test("a Europe/Berlin resource on the spring-forward Sunday: 23 one-hour slots, offsets change at 03:00", async (t) => {
  const { api } = await clinic();
  const berlin = await api.create("/resources", { name: "Berlin", timezone: "Europe/Berlin", slot_duration_min: 60 });
  await api.patch(`/resources/${berlin.id}/work_rules`, { rules: [{ weekday: 0, start_minute: 0, end_minute: 1440 }] });
  const slots = (await api.get(`/calendar?from=2037-03-29T00:00:00%2B01:00&to=2037-03-30T00:00:00%2B02:00&include_slots=true&resource_ids=${berlin.id}`)).body
    .payload.slots;
  const hourly = slots.filter((s: { starts_at: string }) => s.starts_at.slice(14, 16) === "00");
  t.is(hourly.length, 23);
  t.is(hourly[1].starts_at, "2037-03-29T01:00:00+01:00");
  t.is(hourly[1].ends_at, "2037-03-29T03:00:00+02:00");
  t.is(hourly[2].starts_at, "2037-03-29T03:00:00+02:00");
});
