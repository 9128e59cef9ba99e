import test from "ava";
import { useHarness } from "../support/harness";
import { at, book, clinic, liveClinic, MONDAY } from "./bookingSupport";
import type { SchedulingApi } from "./bookingSupport";

const h = useHarness(test);

const MINUTE = 60_000;
const TUESDAY = "2030-03-05";

interface Slot {
  resource_id: number;
  resource_name: string;
  starts_at: string;
  ends_at: string;
  price: number | null;
}

/**
 * The booking clinic (Dr. Booking: Mon–Fri 09:00–18:00, break 13:00–14:00, 10 000 for a 30-minute
 * consultation) plus Dr. Second (Mondays 10:00–12:00, 12 000), an inactive priced resource and an
 * active resource without a price, all working Monday.
 */
async function clinics() {
  const c = await clinic(h);
  const resource = async (name: string, rules: { weekday: number; start_minute: number; end_minute: number }[], extra: Record<string, unknown> = {}) => {
    const created = await c.api.create("/resources", { name, ...extra });
    await c.api.patch(`/resources/${created.id}/work_rules`, { rules });
    return created as { id: number; name: string };
  };
  const second = await resource("Dr. Second", [{ weekday: 1, start_minute: 600, end_minute: 720 }]);
  const inactive = await resource("Dr. Inactive", [{ weekday: 1, start_minute: 480, end_minute: 1080 }]);
  const unpriced = await resource("Dr. Unpriced", [{ weekday: 1, start_minute: 480, end_minute: 1080 }]);
  const prices = [
    { resource_id: c.resource.id, price: 10_000, compensation_type: "percent", compensation_value: 40 },
    { resource_id: second.id, price: 12_000, compensation_type: "percent", compensation_value: 40 },
    { resource_id: inactive.id, price: 9_000, compensation_type: "percent", compensation_value: 40 },
  ];
  expectOk200(await c.api.patch(`/services/${c.service.id}`, { prices }));
  expectOk200(await c.api.patch(`/resources/${inactive.id}`, { active: false }));
  return { ...c, second, inactive, unpriced };
}

function expectOk200(response: { status: number; body: unknown }) {
  if (response.status !== 200) throw new Error(`answered ${response.status} ${JSON.stringify(response.body)}`);
}

async function availability(api: SchedulingApi, query: string, token?: string): Promise<Slot[]> {
  const response = await api.get(`/availability?${query}`, token);
  if (response.status !== 200) throw new Error(`availability answered ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.payload;
}

const clock = (slot: Slot) => slot.starts_at.slice(11, 16);
const monday = (service: { id: number }, extra = "") => `service_id=${service.id}&from=${MONDAY}&to=${TUESDAY}${extra}`;

test("availability for a service: priced active resources only, earliest first, ties by resource id, the grid and the limit", async (t) => {
  const { api, service, resource, second, account } = await clinics();
  const slots = await availability(api, monday(service, "&limit=100"), account.agent.token);
  t.is(slots.length, 100, "an agent may read it; limit up to 100");
  t.deepEqual([...new Set(slots.map((s) => s.resource_id))].sort(), [resource.id, second.id].sort(), "the inactive and the unpriced resource offer nothing");
  t.deepEqual(slots[0], {
    resource_id: resource.id,
    resource_name: "Dr. Booking",
    starts_at: `${MONDAY}T09:00:00+05:00`,
    ends_at: `${MONDAY}T09:30:00+05:00`,
    price: 10_000,
  });
  t.deepEqual(slots.slice(0, 3).map(clock), ["09:00", "09:05", "09:10"], "windows of the service's length every 5 minutes");
  const sorted = [...slots].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at) || a.resource_id - b.resource_id);
  t.deepEqual(slots, sorted);
  const atTen = slots.filter((s) => clock(s) === "10:00");
  t.deepEqual(
    atTen.map((s) => [s.resource_id, s.price]),
    [
      [resource.id, 10_000],
      [second.id, 12_000],
    ],
  );
  t.true(
    slots.every((s) => Number(s.starts_at.slice(14, 16)) % 5 === 0),
    "every slot starts on the 5-minute grid",
  );

  t.is((await availability(api, monday(service))).length, 20, "20 by default");
  t.deepEqual((await availability(api, monday(service, "&limit=3"))).map(clock), ["09:00", "09:05", "09:10"]);
  t.is((await availability(api, monday(service, "&limit=0"))).length, 1, "limit is clamped to 1..100");
  t.is((await availability(api, monday(service, "&limit=500"))).length, 100);

  const onlySecond = await availability(api, monday(service, `&resource_ids=${second.id}`));
  t.deepEqual(onlySecond.map(clock).slice(0, 2), ["10:00", "10:05"]);
  t.true(onlySecond.every((s) => s.resource_id === second.id));
  const both = await availability(api, monday(service, `&resource_ids[]=${second.id}&resource_ids[]=${resource.id}&limit=100`));
  t.is(new Set(both.map((s) => s.resource_id)).size, 2, "resource_ids as an array");
  const bracketed = await availability(api, monday(service, `&resource_ids[]=${second.id}`));
  t.true(bracketed.length > 0 && bracketed.every((s) => s.resource_id === second.id), "resource_ids[] of one resource");
});

test("availability follows breaks, holidays, overrides, time off and bookings with a hold", async (t) => {
  const { api, service, resource, second } = await clinics();
  const ofDoctor = async () => (await availability(api, monday(service, `&resource_ids=${resource.id}&limit=100`))).map(clock);
  const all = await availability(api, `service_id=${service.id}&from=${MONDAY}&to=${TUESDAY}&resource_ids=${resource.id}&limit=100`);
  t.is(all.length, 86, "09:00–13:00 and 14:00–18:00 in 30-minute windows every 5 minutes");
  t.false(
    all.map(clock).some((time) => time > "12:30" && time < "14:00"),
    "no slot overlaps the 13:00–14:00 break",
  );

  const held = await book(api, { resource_id: resource.id, service_id: service.id, starts_at: at("10:00"), client_name: "Held", hold_minutes: 60 });
  t.truthy(held.hold_expires_at, "the booking holds its slot unpaid");
  const afterHold = await ofDoctor();
  t.true(afterHold.includes("09:30") && afterHold.includes("10:30"));
  t.false(
    afterHold.some((time) => time > "09:30" && time < "10:30"),
    "nothing overlaps the held booking",
  );

  await api.create("/time_offs", { resource_id: resource.id, kind: "vacation", starts_at: at("10:30"), ends_at: at("12:00") });
  t.deepEqual((await ofDoctor()).filter((time) => time >= "10:30").slice(0, 1), ["12:00"], "time off blocks");

  await api.create("/workday_overrides", { resource_id: second.id, date: MONDAY, start_minute: 660, end_minute: 720 });
  t.is(clock((await availability(api, monday(service, `&resource_ids=${second.id}`)))[0]!), "11:00", "an override replaces the weekly rules");

  await api.create("/holidays", { date: MONDAY, title: "Closed" });
  t.deepEqual(await ofDoctor(), [], "a holiday closes the day");
  t.is(clock((await availability(api, monday(service, `&resource_ids=${second.id}`)))[0]!), "11:00", "an override cancels the holiday");
});

test("availability starts no sooner than now plus the minimum notice, on the grid; duration_min alone searches every active resource", async (t) => {
  const { api, service, resource } = await liveClinic(h);
  const now = Date.now();
  const first = await availability(api, `service_id=${service.id}`);
  t.is(first.length, 20);
  const start = Date.parse(first[0]!.starts_at);
  t.true(start >= now && start < now + 10 * MINUTE, "from now by default");
  t.is(Date.parse(first[0]!.ends_at) - start, 5 * MINUTE, "the service's duration");

  expectOk200(await api.patch("/settings", { minimum_notice_minutes: 120 }));
  const later = Date.now();
  const noticed = await availability(api, `service_id=${service.id}`);
  const earliest = Date.parse(noticed[0]!.starts_at);
  t.true(earliest >= later + 120 * MINUTE && earliest < Date.now() + 126 * MINUTE, "the first slot is the first round time after the notice");
  t.is(new Date(earliest).getUTCMinutes() % 5, 0);

  const byLength = await availability(api, `duration_min=45&limit=1`);
  t.deepEqual(
    [byLength[0]!.resource_id, byLength[0]!.price, Date.parse(byLength[0]!.ends_at) - Date.parse(byLength[0]!.starts_at)],
    [resource.id, null, 45 * MINUTE],
  );
});

test("from and to bounds, the 31-day cap and bad queries answer in the scheduling error shape", async (t) => {
  const { api, service, resource, second } = await clinics();
  const window = await availability(api, `service_id=${service.id}&from=${MONDAY}T10:00&to=${MONDAY}T11:00&resource_ids=${resource.id}&limit=100`);
  t.deepEqual(
    [window[0]!.starts_at, window.at(-1)!.ends_at, window.length],
    [`${MONDAY}T10:00:00+05:00`, `${MONDAY}T11:00:00+05:00`, 7],
    "times without an offset are read in the account's timezone; slots lie inside [from, to]",
  );
  const defaultTo = await availability(api, `service_id=${service.id}&from=${MONDAY}T11:00&resource_ids=${second.id}&limit=100`);
  t.deepEqual(
    [defaultTo.length, defaultTo[0]!.starts_at, defaultTo.at(-1)!.ends_at],
    [14, `${MONDAY}T11:00:00+05:00`, "2030-03-11T11:00:00+05:00"],
    "to defaults to seven days after from",
  );

  expectOk200(await api.patch("/settings", { timezone: "UTC" }));
  const utc = await availability(api, `service_id=${service.id}&from=${MONDAY}T05:00&to=${MONDAY}T06:00&resource_ids=${resource.id}&limit=100`);
  t.deepEqual([utc[0]!.starts_at, utc.length], [`${MONDAY}T10:00:00+05:00`, 7], "in the account's timezone, with the resource's offset");

  const refused = async (query: string) => {
    const response = await api.get(`/availability?${query}`);
    return [response.status, response.body.code, response.body.details];
  };
  t.deepEqual(await refused(`service_id=${service.id}&from=2030-03-01&to=2030-04-02`), [
    422,
    "VALIDATION_ERROR",
    { to: ["must be at most 31 days after from"] },
  ]);
  t.is((await api.get(`/availability?service_id=${service.id}&from=2030-03-01&to=2030-04-01`)).status, 200, "31 days is allowed");
  t.deepEqual(await refused(`service_id=${service.id}&from=${TUESDAY}&to=${MONDAY}`), [422, "VALIDATION_ERROR", { to: ["must be after from"] }]);
  t.deepEqual((await api.get(`/availability?from=${MONDAY}`)).body.details, { service_id: ["can't be blank unless duration_min is given"] });
  t.deepEqual((await api.get(`/availability?service_id=${service.id}&from=soon`)).body.details, { from: ["is not a valid date-time"] });
  t.deepEqual((await api.get(`/availability?duration_min=4`)).body.details, { duration_min: ["must be greater than or equal to 5"] });
  t.deepEqual((await api.get(`/availability?service_id=${service.id}&resource_ids=999999`)).body, { error: "Resource not found", code: "NOT_FOUND" });
  t.deepEqual((await api.get(`/availability?service_id=999999`)).body, { error: "Service not found", code: "NOT_FOUND" });
});

test("a slot it offers can be booked, and then it is no longer offered", async (t) => {
  const { api, service, resource } = await clinics();
  const [slot] = await availability(api, monday(service, `&resource_ids=${resource.id}&limit=1`));
  const created = await api.post("/appointments", {
    resource_id: slot!.resource_id,
    service_id: service.id,
    starts_at: slot!.starts_at,
    client_name: "Booked",
  });
  t.is(created.status, 201);
  t.is(Date.parse(created.body.payload.ends_at), Date.parse(slot!.ends_at));
  const after = await availability(api, monday(service, `&resource_ids=${resource.id}&limit=100`));
  t.false(
    after.some((s) => Date.parse(s.starts_at) < Date.parse(slot!.ends_at)),
    "neither the slot nor any overlapping it",
  );
  t.is(clock(after[0]!), "09:30");
});

test("it offers exactly the calendar's slots for the service: one computation", async (t) => {
  const { api, service, resource } = await clinics();
  await book(api, { resource_id: resource.id, service_id: service.id, starts_at: at("11:10"), client_name: "Odd time" });
  const offered = await availability(api, monday(service, "&limit=100"));
  const calendar = (await api.get(`/calendar?${monday(service)}&include_slots=true`)).body.payload.slots as Slot[];
  const fromCalendar = calendar
    .map((s) => [s.resource_id, s.starts_at, s.ends_at])
    .sort((a, b) => Date.parse(a[1] as string) - Date.parse(b[1] as string) || (a[0] as number) - (b[0] as number))
    .slice(0, 100);
  t.deepEqual(
    offered.map((s) => [s.resource_id, s.starts_at, s.ends_at]),
    fromCalendar,
  );
  t.true(
    offered.some((s) => clock(s) === "11:40"),
    "after a booking, the next window starts at its end",
  );
});
