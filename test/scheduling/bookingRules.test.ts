import test from "ava";
import { useHarness } from "../support/harness";
import { at, book, clinic, liveClinic, MONDAY } from "./bookingSupport";

const h = useHarness(test);

const MINUTE = 60_000;
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * MINUTE).toISOString();
const appointmentEvents = (accountId: number) =>
  h.knex("events").where({ account_id: accountId }).where("name", "like", "appointment.%").orderBy("id").select("name", "payload");

test("defect 1: a booking made under yesterday's rules can still be confirmed, annotated and re-linked; only a move is checked", async (t) => {
  const { api, resource, service, contact } = await clinic(h);
  const a = await book(api, { resource_id: resource.id, service_id: service.id, starts_at: at("10:00"), client_name: "Walk-in" });
  // The day changes after the booking: the resource now works 14:00–18:00 only.
  await api.create("/workday_overrides", { resource_id: resource.id, date: MONDAY, start_minute: 840, end_minute: 1080 });

  for (const change of [{ notes: "Bring the X-ray" }, { status: "confirmed" }, { contact_id: contact.id }, { custom_attributes: { room: "3" } }]) {
    const response = await api.patch(`/appointments/${a.id}`, change);
    t.is(response.status, 200, JSON.stringify(change));
  }
  t.like((await api.get(`/appointments/${a.id}`)).body.payload, { status: "confirmed", notes: "Bring the X-ray", contact_id: contact.id });

  const moved = await api.patch(`/appointments/${a.id}`, { starts_at: at("10:30") });
  t.deepEqual([moved.status, moved.body.code], [409, "OUTSIDE_WORKING_HOURS"]);
  t.is((await api.patch(`/appointments/${a.id}`, { starts_at: at("15:00") })).status, 200);
});

test("defect 3: no booking or move sooner than the minimum notice; the calendar offers nothing sooner; a past visit may be recorded", async (t) => {
  const { api, resource, service } = await liveClinic(h);
  const body = (startsAt: string, extra: Record<string, unknown> = {}) => ({
    resource_id: resource.id,
    service_id: service.id,
    client_name: "C",
    starts_at: startsAt,
    ...extra,
  });

  const past = await api.post("/appointments", body(inMinutes(-60)));
  t.deepEqual([past.status, past.body.code], [409, "MINIMUM_NOTICE_NOT_MET"]);
  t.is((await api.post("/appointments", body(inMinutes(-60), { record_past_visit: true }))).status, 201, "staff record a past visit");

  t.is((await api.patch("/settings", { minimum_notice_minutes: 120 })).body.payload.minimum_notice_minutes, 120);
  const soon = await api.post("/appointments", body(inMinutes(60)));
  t.deepEqual([soon.status, soon.body.code], [409, "MINIMUM_NOTICE_NOT_MET"]);
  const later = await book(api, body(inMinutes(180)));
  const moved = await api.patch(`/appointments/${later.id}`, { starts_at: inMinutes(30) });
  t.deepEqual([moved.status, moved.body.code], [409, "MINIMUM_NOTICE_NOT_MET"]);
  t.is((await api.patch(`/appointments/${later.id}`, { notes: "annotating is not a move" })).status, 200);

  const calendar = await api.get(`/calendar?from=${encodeURIComponent(inMinutes(-180))}&to=${encodeURIComponent(inMinutes(300))}&include_slots=true`);
  const starts = calendar.body.payload.slots.map((slot: { starts_at: string }) => Date.parse(slot.starts_at));
  t.true(starts.length > 0);
  t.true(
    starts.every((start: number) => start >= Date.now() + 119 * MINUTE),
    "no slot sooner than the notice",
  );
});

test("defect 4: an inactive resource refuses bookings with its own code, stays in the calendar without slots, and keeps its bookings", async (t) => {
  const { api, resource, service } = await clinic(h);
  const kept = await book(api, { resource_id: resource.id, service_id: service.id, starts_at: at("10:00"), client_name: "Kept" });
  await api.patch(`/resources/${resource.id}`, { active: false });

  const refused = await api.post("/appointments", { resource_id: resource.id, service_id: service.id, starts_at: at("11:00"), client_name: "New" });
  t.deepEqual([refused.status, refused.body.code], [422, "RESOURCE_NOT_AVAILABLE_FOR_SCHEDULING"]);
  t.is((await api.patch(`/appointments/${kept.id}`, { notes: "still here" })).status, 200);

  const calendar = await api.get(`/calendar?from=${MONDAY}T00:00:00%2B05:00&to=${MONDAY}T23:59:00%2B05:00&include_slots=true`);
  t.deepEqual(
    calendar.body.payload.resources.map((r: { id: number }) => r.id),
    [resource.id],
  );
  t.deepEqual(calendar.body.payload.slots, []);
  t.deepEqual(
    calendar.body.payload.appointments.map((a: { id: number }) => a.id),
    [kept.id],
  );
});

test("defect 5: a service is booked only with the resources that have an active price of it; the calendar's service_id filter agrees", async (t) => {
  const { api, resource, service } = await clinic(h);
  const other = await api.create("/resources", { name: "Dr. Other" });
  await api.patch(`/resources/${other.id}/work_rules`, { rules: [1].map((weekday) => ({ weekday, start_minute: 540, end_minute: 1080 })) });

  const elsewhere = await api.post("/appointments", { resource_id: other.id, service_id: service.id, starts_at: at("10:00"), client_name: "C" });
  t.deepEqual([elsewhere.status, elsewhere.body.code], [422, "SERVICE_NOT_AVAILABLE_FOR_RESOURCE"]);
  const here = await book(api, { resource_id: resource.id, service_id: service.id, starts_at: at("10:00"), client_name: "C" });
  const move = await api.patch(`/appointments/${here.id}`, { resource_id: other.id });
  t.deepEqual([move.status, move.body.code], [422, "SERVICE_NOT_AVAILABLE_FOR_RESOURCE"]);

  const range = `from=${MONDAY}T00:00:00%2B05:00&to=${MONDAY}T23:59:00%2B05:00&include_slots=true`;
  const filtered = (await api.get(`/calendar?${range}&service_id=${service.id}`)).body.payload;
  t.deepEqual(
    filtered.resources.map((r: { id: number }) => r.id),
    [resource.id],
  );
  t.true(filtered.slots.length > 0 && filtered.slots.every((s: { resource_id: number }) => s.resource_id === resource.id));

  // An inactive price offers nothing.
  await api.patch(`/services/${service.id}`, { prices: [{ resource_id: resource.id, price: 10_000, active: false }] });
  const inactive = await api.post("/appointments", { resource_id: resource.id, service_id: service.id, starts_at: at("11:00"), client_name: "C" });
  t.deepEqual([inactive.status, inactive.body.code], [422, "SERVICE_NOT_AVAILABLE_FOR_RESOURCE"]);
  t.deepEqual((await api.get(`/calendar?${range}&service_id=${service.id}`)).body.payload.resources, []);
});

test("defect 9: times without an offset are the resource's wall clock; the account's timezone is kept and is the default of resources and the calendar", async (t) => {
  const { api, service } = await clinic(h);
  const moscow = await api.create("/resources", { name: "Dr. Moscow", timezone: "Europe/Moscow" });
  await api.patch(`/resources/${moscow.id}/work_rules`, { rules: [{ weekday: 1, start_minute: 540, end_minute: 1080 }] });
  await api.patch(`/services/${service.id}`, { prices: [{ resource_id: moscow.id, price: 9000 }] });
  const booked = await book(api, {
    resource_id: moscow.id,
    service_id: service.id,
    starts_at: `${MONDAY}T10:00`,
    ends_at: `${MONDAY}T10:30`,
    client_name: "C",
  });
  t.like(booked, { starts_at: "2030-03-04T07:00:00.000Z", ends_at: "2030-03-04T07:30:00.000Z" });

  // A time off's times are its resource's wall clock too; everyone's time off is the account's.
  const off = await api.create("/time_offs", { resource_id: moscow.id, kind: "other", starts_at: `${MONDAY}T12:00`, ends_at: `${MONDAY}T13:00` });
  t.like(off, { starts_at: "2030-03-04T09:00:00.000Z", ends_at: "2030-03-04T10:00:00.000Z" });
  const moved = await api.patch(`/time_offs/${off.id}`, { starts_at: `${MONDAY}T11:00` });
  t.like(moved.body.payload, { starts_at: "2030-03-04T08:00:00.000Z", ends_at: "2030-03-04T10:00:00.000Z" });

  const settings = await api.patch("/settings", { timezone: "europe/moscow" });
  t.deepEqual([settings.status, settings.body.payload.timezone], [200, "Europe/Moscow"]);
  t.is((await api.get("/settings")).body.payload.timezone, "Europe/Moscow");
  t.is((await api.create("/resources", { name: "Dr. Default" })).timezone, "Europe/Moscow");
  const calendar = await api.get(`/calendar?from=${MONDAY}T00:00&to=${MONDAY}T12:00`);
  t.deepEqual(calendar.body.payload.range, { from: "2030-03-04T00:00:00+03:00", to: "2030-03-04T12:00:00+03:00" });
  const everyone = await api.create("/time_offs", { kind: "other", starts_at: "2030-03-05", ends_at: "2030-03-06" });
  t.like(everyone, { starts_at: "2030-03-04T21:00:00.000Z", ends_at: "2030-03-05T21:00:00.000Z" });
  const bad = await api.patch("/settings", { timezone: "Mars/Olympus" });
  t.is(bad.status, 422);
});

test("defect 10: twenty concurrent retries with one key make one booking and all get it; another body with the key is refused", async (t) => {
  const { account, api, resource, service } = await clinic(h);
  const body = { resource_id: resource.id, service_id: service.id, starts_at: at("10:00"), client_name: "Retry", idempotency_key: "retry-1" };
  const answers = await Promise.all(Array.from({ length: 20 }, () => api.post("/appointments", body)));
  t.deepEqual(
    answers.map((a) => a.status).sort((x, y) => x - y),
    [...Array<number>(19).fill(200), 201],
  );
  const first = answers[0]!.body.payload;
  t.true(answers.every((a) => JSON.stringify(a.body) === JSON.stringify({ payload: first })));
  t.is(Number((await h.knex("scheduling_appointments").where("account_id", account.id).count("* as n"))[0]!.n), 1);

  // Same fields in another order, or wrapped as Rails clients send them: the same request.
  const wrapped = await api.post("/appointments", {
    appointment: { idempotency_key: "retry-1", client_name: "Retry", starts_at: at("10:00"), service_id: service.id, resource_id: resource.id },
  });
  t.deepEqual([wrapped.status, wrapped.body.payload.id], [200, first.id]);
  const reused = await api.post("/appointments", { ...body, starts_at: at("11:00") });
  t.deepEqual([reused.status, reused.body], [422, { error: "idempotency_key was already used with a different request", code: "IDEMPOTENCY_KEY_REUSED" }]);
});

test("defect 11: statuses move scheduled → confirmed → completed / no_show, live → cancelled; completed and no_show only after the start", async (t) => {
  const { api, resource } = await clinic(h);
  const ahead = await book(api, { resource_id: resource.id, starts_at: at("10:00"), client_name: "C", service_amount: 1000 });
  const early = await api.patch(`/appointments/${ahead.id}`, { status: "completed" });
  t.deepEqual([early.status, early.body.code], [422, "INVALID_STATUS_TRANSITION"]);
  t.is((await api.patch(`/appointments/${ahead.id}`, { status: "no_show" })).body.code, "INVALID_STATUS_TRANSITION");
  t.is((await api.patch(`/appointments/${ahead.id}`, { status: "confirmed" })).status, 200);
  t.is((await api.patch(`/appointments/${ahead.id}`, { status: "scheduled" })).body.code, "INVALID_STATUS_TRANSITION");
  t.is((await api.post(`/appointments/${ahead.id}/cancel`, {})).status, 200);
  t.is((await api.patch(`/appointments/${ahead.id}`, { status: "completed" })).body.code, "INVALID_STATUS_TRANSITION");

  const past = { resource_id: resource.id, starts_at: at("10:00", "2026-03-02"), client_name: "C", service_amount: 1000, record_past_visit: true };
  const visited = await book(api, past);
  t.is((await api.patch(`/appointments/${visited.id}`, { status: "completed" })).status, 200);
  for (const status of ["scheduled", "cancelled", "no_show"]) {
    t.is((await api.patch(`/appointments/${visited.id}`, { status })).body.code, "INVALID_STATUS_TRANSITION", status);
  }
  t.is((await api.post(`/appointments/${visited.id}/cancel`, {})).body.code, "INVALID_STATUS_TRANSITION");
  const created = await api.post("/appointments", { ...past, starts_at: at("11:00", "2026-03-02"), status: "no_show" });
  t.deepEqual([created.status, created.body.payload?.status], [201, "no_show"]);
});

test("events: a move is updated and rescheduled with the previous and current placement; a status change is updated and its status event", async (t) => {
  const { account, api, resource } = await clinic(h);
  const a = await book(api, { resource_id: resource.id, starts_at: at("10:00"), client_name: "C", service_amount: 1000 });
  await api.patch(`/appointments/${a.id}`, { starts_at: at("11:00") });
  const visit = await book(api, {
    resource_id: resource.id,
    starts_at: at("10:00", "2026-03-02"),
    client_name: "C",
    service_amount: 1000,
    record_past_visit: true,
  });
  await api.patch(`/appointments/${visit.id}`, { status: "no_show" });
  await api.patch(`/appointments/${a.id}`, { notes: "just a note" });

  const events = await appointmentEvents(account.id);
  t.deepEqual(
    events.map((e) => e.name),
    [
      "appointment.created",
      "appointment.updated",
      "appointment.rescheduled",
      "appointment.created",
      "appointment.updated",
      "appointment.no_show",
      "appointment.updated",
    ],
  );
  t.like(events[2]!.payload, {
    event: "appointment.rescheduled",
    id: a.id,
    previous: { resource_id: resource.id, starts_at: "2030-03-04T05:00:00.000Z", ends_at: "2030-03-04T05:30:00.000Z", duration_min: 30 },
    current: { resource_id: resource.id, starts_at: "2030-03-04T06:00:00.000Z", ends_at: "2030-03-04T06:30:00.000Z", duration_min: 30 },
  });
  t.like(events[5]!.payload, { event: "appointment.no_show", id: visit.id, status: "no_show", previous_status: "scheduled" });
});
