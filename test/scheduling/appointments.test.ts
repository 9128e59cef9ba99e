import test from "ava";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { at, book, clinic, MONDAY } from "./bookingSupport";
import { schedulingApi } from "./support";

const h = useHarness(test);

test("POST appointments books with the fork's defaults; S2 shows it; an idempotency_key replays the same request with 200", async (t) => {
  const { account, api, resource, service, contact } = await clinic(h);
  const response = await api.post("/appointments", {
    resource_id: resource.id,
    service_id: service.id,
    contact_id: contact.id,
    starts_at: at("10:00"),
    idempotency_key: "booking-1",
  });
  t.is(response.status, 201);
  const appointment = response.body.payload;
  t.deepEqual(appointment, {
    id: appointment.id,
    account_id: account.id,
    resource_id: resource.id,
    contact_id: contact.id,
    service_id: service.id,
    company_id: null,
    conversation_id: null,
    created_by_id: account.admin.id,
    starts_at: "2030-03-04T05:00:00.000Z",
    ends_at: "2030-03-04T05:30:00.000Z",
    duration_min: 30,
    status: "scheduled",
    appointment_type: "primary",
    source: "manual",
    client_name: "Aidos Seitkali",
    client_phone: "+77012345678",
    client_identifier: "940720300129",
    client_birth_date: "1994-07-20",
    client_gender: "male",
    payment_status: "awaiting_payment",
    service_amount: 10_000,
    prepaid_amount: 0,
    settlement_amount: 0,
    refunded_amount: 0,
    prepaid_payment_method: null,
    settlement_payment_method: null,
    compensation_type_snapshot: "percent",
    compensation_value_snapshot: 40,
    external_ref: null,
    idempotency_key: "booking-1",
    notes: null,
    custom_attributes: {},
    hold_expires_at: null,
    cancelled_at: null,
    cancellation_reason: null,
    payments: [],
    expense: null,
  });

  const shown = await api.get(`/appointments/${appointment.id}`);
  t.deepEqual([shown.status, shown.body], [200, { payload: appointment }]);

  // The same request again gets the booking it made; another request with the key is refused.
  const replay = await api.post("/appointments", {
    resource_id: resource.id,
    service_id: service.id,
    contact_id: contact.id,
    starts_at: at("10:00"),
    idempotency_key: "booking-1",
  });
  t.deepEqual([replay.status, replay.body], [200, { payload: appointment }]);
  const reused = await api.post("/appointments", { resource_id: resource.id, starts_at: at("23:00"), idempotency_key: "booking-1" });
  t.deepEqual([reused.status, reused.body.code], [422, "IDEMPOTENCY_KEY_REUSED"]);
  t.deepEqual(await h.knex("scheduling_appointments").where("account_id", account.id).pluck("id"), [appointment.id]);

  const missing = await api.get(`/appointments/${appointment.id + 1000}`);
  t.deepEqual([missing.status, missing.body], [404, { error: "Appointment not found", code: "APPOINTMENT_NOT_FOUND" }]);
});

test("client fields fall back to the contact; the price comes from the resource's own price with its compensation", async (t) => {
  const { api, resource, service, contact } = await clinic(h);
  await api.patch(`/services/${service.id}`, { prices: [{ resource_id: resource.id, price: 12_000, compensation_type: "fixed", compensation_value: 2500 }] });
  const own = await book(api, {
    resource_id: resource.id,
    service_id: service.id,
    contact_id: contact.id,
    starts_at: at("09:00"),
    client_name: "Override Name",
  });
  t.like(own, {
    client_name: "Override Name",
    client_phone: "+77012345678",
    service_amount: 12_000,
    compensation_type_snapshot: "fixed",
    compensation_value_snapshot: 2500,
  });

  // An explicit amount wins; the snapshot still comes from the price.
  const explicit = await book(api, { resource_id: resource.id, service_id: service.id, starts_at: at("09:30"), client_name: "Walk-in", service_amount: 7000 });
  t.like(explicit, { service_amount: 7000, compensation_type_snapshot: "fixed", client_phone: null, client_identifier: null });

  // A later price change does not rewrite the booking's snapshot.
  await api.patch(`/services/${service.id}`, { prices: [{ resource_id: resource.id, price: 15_000, compensation_type: "percent", compensation_value: 10 }] });
  const renamed = await api.patch(`/appointments/${own.id}`, { client_name: "Aidos S." });
  t.like(renamed.body.payload, { client_name: "Aidos S.", service_amount: 12_000, compensation_type_snapshot: "fixed", compensation_value_snapshot: 2500 });

  // Without a service: the resource's compensation, and the amount must be given.
  const free = await api.post("/appointments", { resource_id: resource.id, starts_at: at("10:00"), client_name: "No service" });
  t.deepEqual([free.status, free.body], [422, { error: "service_amount is required and must be greater than 0", code: "VALIDATION_ERROR" }]);
  const priced = await book(api, {
    resource_id: resource.id,
    starts_at: at("10:00"),
    ends_at: at("10:45"),
    client_name: "No service",
    service_amount: 5000,
    client_identifier: "A-17",
  });
  t.like(priced, { duration_min: 45, compensation_type_snapshot: "percent", compensation_value_snapshot: 40, client_identifier: "A-17" });

  const explicitDuration = await book(api, {
    resource_id: resource.id,
    starts_at: at("11:00"),
    ends_at: at("11:20"),
    duration_min: 60,
    client_name: "Odd",
    service_amount: 1,
  });
  t.is(explicitDuration.duration_min, 60, "an explicit duration is kept as given");
});

test("refusals before the calendar: missing client, bad IIN, unavailable service, unknown records", async (t) => {
  const { api, resource, service } = await clinic(h);
  const base = { resource_id: resource.id, service_id: service.id, starts_at: at("10:00") };

  const noName = await api.post("/appointments", base);
  t.deepEqual(
    [noName.status, noName.body],
    [422, { error: "Validation failed: client_name is required", code: "VALIDATION_ERROR", details: { client_name: ["is required"] } }],
  );

  const badIin = await api.post("/appointments", { ...base, client_name: "X", client_identifier: "123456789012" });
  t.deepEqual([badIin.status, badIin.body], [422, { error: "IIN checksum is invalid", code: "INVALID_IIN" }]);

  await api.patch(`/services/${service.id}`, { active: false });
  const inactive = await api.post("/appointments", { ...base, client_name: "X" });
  t.deepEqual(
    [inactive.status, inactive.body],
    [422, { error: "Service is not available for the selected resource", code: "SERVICE_NOT_AVAILABLE_FOR_RESOURCE" }],
  );

  const missingResource = await api.post("/appointments", { ...base, resource_id: resource.id + 10_000, client_name: "X" });
  t.deepEqual([missingResource.status, missingResource.body], [404, { error: "Resource not found", code: "NOT_FOUND" }]);
  const missingConversation = await api.post("/appointments", {
    resource_id: resource.id,
    starts_at: at("10:00"),
    client_name: "X",
    service_amount: 1,
    conversation_id: 999_999,
  });
  t.deepEqual([missingConversation.status, missingConversation.body], [404, { error: "Conversation not found", code: "NOT_FOUND" }]);

  const required = await api.post("/appointments", { client_name: "X" });
  t.deepEqual(
    [required.status, required.body.code, required.body.details],
    [422, "VALIDATION_ERROR", { resource_id: ["can't be blank"], starts_at: ["can't be blank"] }],
  );
  const badEnum = await api.post("/appointments", { ...base, client_name: "X", status: "done", starts_at: "tomorrow" });
  t.deepEqual(badEnum.body.details, { status: ["is not included in the list"], starts_at: ["is not a valid date-time"] });
  const noContact = await api.post("/appointments", {
    resource_id: resource.id,
    starts_at: at("10:00"),
    client_name: "X",
    service_amount: 1,
    inbox_id: 999_999,
  });
  t.deepEqual([noContact.status, noContact.body], [404, { error: "Inbox not found", code: "NOT_FOUND" }]);
  t.is(await count(resource.id), 0, "nothing was written");
});

async function count(resourceId: number): Promise<number> {
  return (await h.knex("scheduling_appointments").where("resource_id", resourceId).pluck("id")).length;
}

test("each booking rule answers with its code, in the fork's order", async (t) => {
  const { api, resource } = await clinic(h);
  const attempt = (startsAt: string, endsAt: string) =>
    api.post("/appointments", { resource_id: resource.id, starts_at: startsAt, ends_at: endsAt, client_name: "Client", service_amount: 1000 });
  const refusal = async (startsAt: string, endsAt: string) => {
    const response = await attempt(startsAt, endsAt);
    return [response.status, response.body];
  };

  t.deepEqual(await refusal(at("10:00"), at("10:00")), [
    422,
    { error: "ends_at must be after starts_at", code: "VALIDATION_ERROR", details: { ends_at: ["must be after starts_at"] } },
  ]);
  t.deepEqual(await refusal(at("17:30"), at("00:30", "2030-03-05")), [
    409,
    { error: "Appointment must fit into one local day", code: "OUTSIDE_WORKING_HOURS" },
  ]);
  t.deepEqual(await refusal(at("10:00", "2030-03-09"), at("10:30", "2030-03-09")), [
    409,
    { error: "No working rules configured for this day", code: "OUTSIDE_WORKING_HOURS" },
  ]);
  t.deepEqual(await refusal(at("08:45"), at("09:15")), [409, { error: "Appointment is outside working hours", code: "OUTSIDE_WORKING_HOURS" }]);
  t.deepEqual(await refusal(at("12:45"), at("13:15")), [409, { error: "Appointment overlaps a break", code: "BLOCKED_BY_BREAK" }]);

  await api.create("/holidays", { date: "2030-03-05", title: "Clinic day" });
  t.deepEqual(await refusal(at("10:00", "2030-03-05"), at("10:30", "2030-03-05")), [
    409,
    { error: "The resource does not work on this holiday", code: "BLOCKED_BY_HOLIDAY" },
  ]);
  await api.create("/time_offs", { resource_id: resource.id, kind: "vacation", starts_at: at("15:00"), ends_at: at("16:00") });
  t.deepEqual(await refusal(at("15:30"), at("16:30")), [409, { error: "The resource is off at this time", code: "BLOCKED_BY_VACATION" }]);

  t.is((await attempt(at("10:00"), at("10:30"))).status, 201);
  t.deepEqual(await refusal(at("10:15"), at("10:45")), [409, { error: "The resource already has an appointment at this time", code: "SLOT_CONFLICT" }]);
  t.is((await attempt(at("10:30"), at("11:00"))).status, 201, "back to back is allowed");
  t.is(await count(resource.id), 2);
});

test("SLOT_CONFLICT follows the status: cancelled bookings free their slot, completed and no-show ones keep it", async (t) => {
  const { api, resource } = await clinic(h);
  // Visits that already happened, recorded as such.
  const past = (time: string) => ({
    resource_id: resource.id,
    starts_at: at(time, "2026-03-02"),
    client_name: "Client",
    service_amount: 1000,
    record_past_visit: true,
  });
  const visited = await book(api, past("11:00"));
  const completed = await api.patch(`/appointments/${visited.id}`, { status: "completed" });
  t.is(completed.body.payload.status, "completed");
  t.is((await api.post("/appointments", past("11:00"))).body.code, "SLOT_CONFLICT");
  const missed = await book(api, past("12:00"));
  t.is((await api.patch(`/appointments/${missed.id}`, { status: "no_show" })).body.payload.status, "no_show");
  t.is((await api.post("/appointments", past("12:00"))).body.code, "SLOT_CONFLICT");

  const slot = { resource_id: resource.id, starts_at: at("11:00"), client_name: "Client", service_amount: 1000 };
  const first = await book(api, slot);

  const cancelled = await api.post(`/appointments/${first.id}/cancel`, { cancellation_reason: "Client called" });
  t.is(cancelled.status, 200);
  t.like(cancelled.body.payload, { status: "cancelled", payment_status: "cancelled", cancellation_reason: "Client called" });
  t.truthy(cancelled.body.payload.cancelled_at);
  const second = await book(api, slot);

  // Re-opening the cancelled one checks the calendar again.
  const reopen = await api.patch(`/appointments/${first.id}`, { status: "scheduled" });
  t.deepEqual([reopen.status, reopen.body.code], [409, "SLOT_CONFLICT"]);
  await api.post(`/appointments/${second.id}/cancel`, {});
  const reopened = await api.patch(`/appointments/${first.id}`, { status: "confirmed" });
  t.is(reopened.status, 200);
  t.like(reopened.body.payload, { status: "confirmed", payment_status: "cancelled", cancelled_at: null, cancellation_reason: null });
  // A cancelled payment sticks until the client names a payment status.
  const unstuck = await api.patch(`/appointments/${first.id}`, { payment_status: "awaiting_payment" });
  t.is(unstuck.body.payload.payment_status, "awaiting_payment");
});

test("PATCH reschedules (keeping the length), refuses conflicts, and changes nothing when refused", async (t) => {
  const { api, resource, service, contact } = await clinic(h);
  const a = await book(api, { resource_id: resource.id, service_id: service.id, contact_id: contact.id, starts_at: at("09:00") });
  const b = await book(api, { resource_id: resource.id, service_id: service.id, contact_id: contact.id, starts_at: at("10:00") });

  const moved = await api.patch(`/appointments/${a.id}`, { starts_at: at("11:00") });
  t.is(moved.status, 200);
  t.like(moved.body.payload, { starts_at: "2030-03-04T06:00:00.000Z", ends_at: "2030-03-04T06:30:00.000Z", duration_min: 30 });

  const clash = await api.patch(`/appointments/${a.id}`, { starts_at: at("10:15"), notes: "should not stick" });
  t.deepEqual([clash.status, clash.body.code], [409, "SLOT_CONFLICT"]);
  t.like((await api.get(`/appointments/${a.id}`)).body.payload, { starts_at: "2030-03-04T06:00:00.000Z", notes: null });

  const longer = await api.patch(`/appointments/${b.id}`, { ends_at: at("10:50"), notes: "Bring results", custom_attributes: { room: 4 } });
  t.like(longer.body.payload, { duration_min: 50, notes: "Bring results", custom_attributes: { room: 4 } });
  const merged = await api.patch(`/appointments/${b.id}`, { appointment: { custom_attributes: { floor: 2 } } });
  t.deepEqual(merged.body.payload.custom_attributes, { room: 4, floor: 2 }, "custom attributes merge, and the body may be wrapped");

  t.deepEqual((await api.patch(`/appointments/${b.id + 1000}`, { notes: "x" })).body, { error: "Appointment not found", code: "APPOINTMENT_NOT_FOUND" });
});

test("external_ref is unique per account; DELETE only takes cancelled bookings without money history", async (t) => {
  const { api, resource } = await clinic(h);
  const first = await book(api, { resource_id: resource.id, starts_at: at("09:00"), client_name: "A", service_amount: 1000, external_ref: "crm-1" });
  const duplicate = await api.post("/appointments", {
    resource_id: resource.id,
    starts_at: at("10:00"),
    client_name: "B",
    service_amount: 1000,
    external_ref: "crm-1",
  });
  t.deepEqual([duplicate.status, duplicate.body], [409, { error: "external_ref has already been taken", code: "DUPLICATE_EXTERNAL_REF" }]);
  const other = await clinic(h, "Other clinic");
  t.is(
    (
      await other.api.post("/appointments", {
        resource_id: other.resource.id,
        starts_at: at("09:00"),
        client_name: "A",
        service_amount: 1000,
        external_ref: "crm-1",
      })
    ).status,
    201,
  );

  const live = await api.delete(`/appointments/${first.id}`);
  t.deepEqual([live.status, live.body], [422, { error: "Only cancelled appointments can be deleted", code: "APPOINTMENT_DELETE_REQUIRES_CANCELLED" }]);
  await api.post(`/appointments/${first.id}/cancel`, {});
  const deleted = await api.delete(`/appointments/${first.id}`);
  t.is(deleted.status, 204);
  t.is((await api.get(`/appointments/${first.id}`)).status, 404);
  t.is((await api.delete(`/appointments/${first.id}`)).body.code, "APPOINTMENT_NOT_FOUND");

  const paid = await book(api, {
    resource_id: resource.id,
    starts_at: at("11:00"),
    client_name: "C",
    service_amount: 1000,
    prepaid_amount: 1000,
    prepaid_payment_method: "cash",
  });
  await api.patch(`/appointments/${paid.id}`, { status: "cancelled" });
  const kept = await api.delete(`/appointments/${paid.id}`);
  t.deepEqual([kept.status, kept.body], [422, { error: "Historical finance data prevents appointment deletion", code: "HISTORICAL_DATA_RETAINED" }]);
});

test("the index filters by resource, status, payment status, contact and start, newest page by page", async (t) => {
  const { account, api, resource, contact } = await clinic(h);
  const second = await api.create("/resources", { name: "Dr. Second" });
  await api.patch(`/resources/${second.id}/work_rules`, { rules: [{ weekday: 1, start_minute: 540, end_minute: 1080 }] });
  const booked: { id: number }[] = [];
  for (const [i, time] of ["09:00", "09:30", "10:00", "10:30", "11:00"].entries()) {
    booked.push(
      await book(api, {
        resource_id: i % 2 ? second.id : resource.id,
        starts_at: at(time),
        client_name: `C${i}`,
        service_amount: 1000,
        ...(i === 4 ? { contact_id: contact.id } : {}),
      }),
    );
  }
  await api.post(`/appointments/${booked[2].id}/cancel`, {});
  const ids = (response: { body: { payload: { id: number }[] } }) => response.body.payload.map((a) => a.id);

  const all = await api.get("/appointments");
  t.deepEqual(
    ids(all),
    booked.map((a) => a.id),
  );
  t.deepEqual(all.body.meta, { count: 5, current_page: 1, per_page: 100 });
  t.deepEqual(ids(await api.get(`/appointments?resource_ids=${second.id}`)), [booked[1].id, booked[3].id]);
  t.deepEqual(ids(await api.get("/appointments?status=cancelled")), [booked[2].id]);
  t.deepEqual(
    ids(await api.get("/appointments?status=scheduled,confirmed&payment_status=awaiting_payment")),
    [0, 1, 3, 4].map((i) => booked[i].id),
  );
  t.deepEqual(ids(await api.get(`/appointments?contact_id=${contact.id}`)), [booked[4].id]);
  t.deepEqual(ids(await api.get(`/appointments?from=${encodeURIComponent(at("09:30"))}&to=${encodeURIComponent(at("10:30"))}`)), [booked[1].id, booked[2].id]);
  const page = await api.get("/appointments?per_page=2&page=2");
  t.deepEqual([ids(page), page.body.meta], [[booked[2].id, booked[3].id], { count: 5, current_page: 2, per_page: 2 }]);

  const bad = await api.get("/appointments?status=done&per_page=0");
  t.deepEqual([bad.status, bad.body.details], [422, { status: ["is not included in the list (done)"], per_page: ["must be greater than or equal to 1"] }]);
  const other = await createAccount(h, "Nosy");
  t.deepEqual(
    (await schedulingApi(h, other).get(`/appointments/${booked[0].id}`)).body.code,
    "APPOINTMENT_NOT_FOUND",
    "another account's booking is not found",
  );
  void account;
});

test("the calendar shows bookings with their money, and its slots leave out booked time but not cancelled time", async (t) => {
  const { api, resource } = await clinic(h);
  const day = `from=${MONDAY}&to=2030-03-05&include_slots=true`;
  const before = (await api.get(`/calendar?${day}`)).body.payload.slots.length;
  const paid = await book(api, {
    resource_id: resource.id,
    starts_at: at("09:00"),
    client_name: "Paid",
    service_amount: 10_000,
    prepaid_amount: 4000,
    prepaid_payment_method: "kaspi_qr",
    settlement_amount: 6000,
    settlement_payment_method: "cash",
  });
  const cancelled = await book(api, { resource_id: resource.id, starts_at: at("16:00"), client_name: "Gone", service_amount: 1000 });
  await api.post(`/appointments/${cancelled.id}/cancel`, {});

  const calendar = (await api.get(`/calendar?${day}`)).body.payload;
  t.deepEqual(
    calendar.appointments.map((a: { id: number }) => a.id),
    [paid.id, cancelled.id],
  );
  t.deepEqual(
    calendar.appointments[0].payments.map((p: { payment_kind: string; amount: number }) => [p.payment_kind, p.amount]),
    [
      ["prepaid", 4000],
      ["adjustment", 6000],
    ],
  );
  t.deepEqual(
    calendar.payments.map((p: { appointment_id: number }) => p.appointment_id),
    [paid.id, paid.id],
  );
  t.like(calendar.expenses[0], { appointment_id: paid.id, resource_id: resource.id, amount: 4000, status: "unpaid", paid_at: null });
  const slots: { starts_at: string; ends_at: string }[] = calendar.slots;
  t.false(
    slots.some((s) => s.starts_at < "2030-03-04T09:30:00+05:00"),
    "nothing overlaps the 09:00 booking",
  );
  t.is(slots[0].starts_at, "2030-03-04T09:30:00+05:00");
  t.true(
    slots.some((s) => s.starts_at === "2030-03-04T16:00:00+05:00"),
    "a cancelled booking's time is offered again",
  );
  t.is(before - slots.length, 6, "six 5-minute-step windows overlapped 09:00–09:30");

  // Every offered slot is bookable.
  const offered = slots[17];
  t.is(
    (
      await api.post("/appointments", {
        resource_id: resource.id,
        starts_at: offered.starts_at,
        ends_at: offered.ends_at,
        client_name: "Slot",
        service_amount: 1,
      })
    ).status,
    201,
  );
});

test("feature flags and roles: scheduling and scheduling_finance gate, journals and payouts are for administrators", async (t) => {
  const { account, api, resource } = await clinic(h);
  const appointment = await book(api, { resource_id: resource.id, starts_at: at("09:00"), client_name: "A", service_amount: 1000 });
  const agent = (method: "get" | "post", path: string) => (method === "get" ? api.get(path, account.agent.token) : api.post(path, {}, account.agent.token));

  // Agents book and take payments; journals, payouts and settings changes are administrators'.
  t.is(
    (await api.post("/appointments", { resource_id: resource.id, starts_at: at("10:00"), client_name: "B", service_amount: 1000 }, account.agent.token)).status,
    201,
  );
  t.is((await api.post(`/appointments/${appointment.id}/payments`, { amount: 100, payment_method: "cash" }, account.agent.token)).status, 200);
  for (const [method, path] of [
    ["get", "/payments"],
    ["get", "/expenses"],
    ["post", "/expenses/pay_all"],
    ["post", "/expenses/1/pay"],
  ] as const) {
    const denied = await agent(method, path);
    t.deepEqual([denied.status, denied.body], [401, { error: "You are not authorized to do this action" }], `${method} ${path}`);
  }
  t.is((await api.patch("/settings", { prepayment_hold_minutes: 15 }, account.agent.token)).status, 401);

  const toggle = (features: Record<string, boolean>) =>
    h.request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { features } });
  await toggle({ scheduling_finance: false });
  const financeOff = { error: "Scheduling finance is not enabled for this account", code: "FEATURE_DISABLED" };
  for (const [method, path] of [
    ["get", "/payments"],
    ["get", "/expenses"],
    ["post", "/expenses/pay_all"],
    ["post", `/appointments/${appointment.id}/payments`],
  ] as const) {
    const refusedBody = method === "get" ? await api.get(path) : await api.post(path, { payment_method: "cash" });
    t.deepEqual([refusedBody.status, refusedBody.body], [403, financeOff], `${method} ${path}`);
  }
  t.deepEqual((await api.delete(`/appointments/${appointment.id}/payments`)).body, financeOff);
  t.is((await api.get(`/appointments/${appointment.id}`)).status, 200, "bookings work without finance");

  await toggle({ scheduling: false });
  const off = await api.get("/appointments");
  t.deepEqual([off.status, off.body], [403, { error: "Scheduling is not enabled for this account", code: "FEATURE_DISABLED" }]);
});

test("scheduling settings: defaults, changes, validation", async (t) => {
  const { api } = await clinic(h);
  const rest = {
    minimum_notice_minutes: 0,
    timezone: "Asia/Almaty",
    ended_booking_status: null,
    ended_booking_grace_minutes: 60,
    confirmation_request_minutes_before: null,
  };
  t.deepEqual((await api.get("/settings")).body, { payload: { reminder_offsets_minutes: [1440, 120], prepayment_hold_minutes: 30, ...rest } });
  const changed = await api.patch("/settings", { reminder_offsets_minutes: [60, 1440, 60] });
  t.deepEqual(changed.body, { payload: { reminder_offsets_minutes: [1440, 60], prepayment_hold_minutes: 30, ...rest } });
  const hold = await api.patch("/settings", { settings: { prepayment_hold_minutes: 45 } });
  t.deepEqual(hold.body.payload, { reminder_offsets_minutes: [1440, 60], prepayment_hold_minutes: 45, ...rest });
  const bad = await api.patch("/settings", { reminder_offsets_minutes: [0], prepayment_hold_minutes: 20_000 });
  t.deepEqual(
    [bad.status, bad.body.details],
    [422, { "reminder_offsets_minutes.0": ["must be greater than or equal to 1"], prepayment_hold_minutes: ["must be less than or equal to 10080"] }],
  );
  t.deepEqual((await api.get("/settings")).body.payload, { reminder_offsets_minutes: [1440, 60], prepayment_hold_minutes: 45, ...rest });
});
