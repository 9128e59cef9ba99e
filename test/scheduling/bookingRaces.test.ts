import test from "ava";
import { eventually } from "../support/eventually";
import { useHarness } from "../support/harness";
import { at, clinic } from "./bookingSupport";

const h = useHarness(test);

const liveIn = async (resourceId: number) =>
  h.knex("scheduling_appointments").where("resource_id", resourceId).whereNot("status", "cancelled").select("id", "starts_at");

test("30 simultaneous requests for one slot create exactly one appointment; the rest get 409 SLOT_CONFLICT", async (t) => {
  const { api, resource } = await clinic(h);
  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      api.post("/appointments", { resource_id: resource.id, starts_at: at("10:00"), client_name: `Client ${i}`, service_amount: 1000 }),
    ),
  );
  t.deepEqual(responses.filter((r) => r.status === 201).length, 1);
  for (const refused of responses.filter((r) => r.status !== 201)) {
    t.deepEqual([refused.status, refused.body], [409, { error: "The resource already has an appointment at this time", code: "SLOT_CONFLICT" }]);
  }
  t.is((await liveIn(resource.id)).length, 1);
});

test("overlapping (not identical) requests and reschedules race into one slot: the database keeps them apart", async (t) => {
  const { api, resource } = await clinic(h);
  // Fifteen bookings a few minutes apart, all overlapping 11:00–11:30, and fifteen moves into it from Tuesday.
  const tuesday = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "12:00", "12:30", "14:00", "14:30", "15:00", "15:30", "16:00", "16:30", "17:00"];
  const movers: { id: number }[] = [];
  for (const [i, time] of tuesday.entries())
    movers.push(
      await api.create("/appointments", { resource_id: resource.id, starts_at: at(time, "2030-03-05"), client_name: `Mover ${i}`, service_amount: 1000 }),
    );
  const responses = await Promise.all([
    ...Array.from({ length: 15 }, (_, i) =>
      api.post("/appointments", {
        resource_id: resource.id,
        starts_at: at(`10:${String(35 + i).padStart(2, "0")}`),
        client_name: `New ${i}`,
        service_amount: 1000,
      }),
    ),
    ...movers.map((m) => api.patch(`/appointments/${m.id}`, { starts_at: at("11:00") })),
  ]);
  const winners = responses.filter((r) => r.status === 200 || r.status === 201);
  t.is(winners.length, 1, "one booking holds 11:00");
  t.true(responses.filter((r) => r.status >= 300).every((r) => r.status === 409 && r.body.code === "SLOT_CONFLICT"));
  const live = (await liveIn(resource.id)).map((a) => a.starts_at.getTime()).sort();
  const overlapping = live.filter((start) => start < Date.parse(at("11:30")) && start + 30 * 60_000 > Date.parse(at("11:00")));
  t.is(overlapping.length, 1);
});

test("idempotency: racing creates with one key and one body make one appointment; every other one replays it (200)", async (t) => {
  const { account, api, resource } = await clinic(h);
  const body = { resource_id: resource.id, starts_at: at("12:00"), client_name: "Same", service_amount: 1000, idempotency_key: "retry-me" };
  const responses = await Promise.all(Array.from({ length: 30 }, () => api.post("/appointments", body)));
  const created = responses.filter((r) => r.status === 201);
  t.is(created.length, 1);
  const id = created[0]!.body.payload.id;
  for (const other of responses.filter((r) => r.status !== 201)) t.deepEqual([other.status, other.body.payload?.id], [200, id]);
  t.deepEqual(await h.knex("scheduling_appointments").where({ account_id: account.id, idempotency_key: "retry-me" }).pluck("id"), [id]);

  // Another body with the key is refused.
  const reused = await api.post("/appointments", { ...body, starts_at: at("15:00") });
  t.deepEqual([reused.status, reused.body.code], [422, "IDEMPOTENCY_KEY_REUSED"]);
  // A key is unique per account, so an update cannot take another booking's.
  const second = await api.create("/appointments", { ...body, starts_at: at("16:00"), idempotency_key: "other" });
  const taken = await api.patch(`/appointments/${second.id}`, { idempotency_key: "retry-me" });
  t.deepEqual([taken.status, taken.body.code], [409, "DUPLICATE_IDEMPOTENCY_KEY"]);
});

test("racing creates with one external_ref make one appointment; the others get 409 DUPLICATE_EXTERNAL_REF", async (t) => {
  const { api, resource } = await clinic(h);
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      api.post("/appointments", {
        resource_id: resource.id,
        starts_at: new Date(Date.parse(at("09:00")) + i * 5 * 60_000).toISOString(),
        duration_min: 5,
        client_name: "Ref",
        service_amount: 1000,
        external_ref: "medical-card-7",
      }),
    ),
  );
  t.is(responses.filter((r) => r.status === 201).length, 1);
  t.true(responses.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.code === "DUPLICATE_EXTERNAL_REF"));
});

test("a booking the application check cannot see yet (uncommitted) is caught by the exclusion constraint: 409 SLOT_CONFLICT, not 500", async (t) => {
  const { account, api, resource } = await clinic(h);
  const trx = await h.knex.transaction();
  try {
    await trx("scheduling_appointments").insert({
      account_id: account.id,
      resource_id: resource.id,
      starts_at: at("16:00"),
      ends_at: at("16:30"),
      duration_min: 30,
      client_name: "Invisible",
    });
    const pending = api.post("/appointments", { resource_id: resource.id, starts_at: at("16:15"), client_name: "Racer", service_amount: 1000 });
    // The request passed its own check and now waits on the constraint for our transaction.
    const blocked = await eventually(
      () =>
        h
          .knex("pg_stat_activity")
          .where({ datname: h.knex.raw("current_database()"), wait_event_type: "Lock" })
          .whereILike("query", 'insert into "scheduling_appointments"%')
          .first("pid"),
      Boolean,
      "the booking to wait on the lock at its insert",
      15_000,
    );
    t.truthy(blocked, "the booking reached the insert");
    await trx.commit();
    const response = await pending;
    t.deepEqual([response.status, response.body], [409, { error: "The resource already has an appointment at this time", code: "SLOT_CONFLICT" }]);
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
  t.deepEqual(
    (await liveIn(resource.id)).map((a) => a.starts_at.toISOString()),
    ["2030-03-04T11:00:00.000Z"],
  );
});
