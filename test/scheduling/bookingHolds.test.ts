import test from "ava";
import { HOLD_EXPIRED_REASON } from "../../src/scheduling/constants";
import { eventually } from "../support/eventually";
import { useHarness } from "../support/harness";
import { book, liveClinic, type LiveClinic, sleep } from "./bookingSupport";

const h = useHarness(test, { relay: true });

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

const bookFor = (c: LiveClinic, startsAt: string, extra: Record<string, unknown> = {}) =>
  book(c.api, { resource_id: c.resource.id, service_id: c.service.id, contact_id: c.contact.id, inbox_id: c.inbox.id, starts_at: startsAt, ...extra });

async function expired(c: LiveClinic, id: number) {
  return eventually(
    () => c.api.get(`/appointments/${id}`),
    (r) => r.body.payload.status === "cancelled",
    "the held appointment to be cancelled",
    30_000,
  );
}

test("defect 2: reopening a booking whose hold ran out starts a fresh hold, or none when its service needs no prepayment; holds are settable on update", async (t) => {
  const c = await liveClinic(h);
  const first = await bookFor(c, inMs(3 * 60 * MINUTE), { hold_until: inMs(3 * SECOND) });
  t.like((await expired(c, first.id)).body.payload, { cancellation_reason: HOLD_EXPIRED_REASON });

  // The service needs no prepayment: reopened without a hold, and it stays booked.
  const reopened = await c.api.patch(`/appointments/${first.id}`, { status: "scheduled" });
  t.deepEqual([reopened.status, reopened.body.payload.hold_expires_at], [200, null]);
  await sleep(3 * SECOND);
  t.is((await c.api.get(`/appointments/${first.id}`)).body.payload.status, "scheduled", "not cancelled again");

  // It now does: a reopened booking is held for the account's minutes from now.
  await c.api.patch("/settings", { prepayment_hold_minutes: 20 });
  await c.api.patch(`/services/${c.service.id}`, { prepayment_required: true });
  const second = await bookFor(c, inMs(4 * 60 * MINUTE), { hold_until: inMs(3 * SECOND) });
  await expired(c, second.id);
  const before = Date.now();
  const held = (await c.api.patch(`/appointments/${second.id}`, { status: "confirmed" })).body.payload;
  const expires = Date.parse(held.hold_expires_at);
  t.true(expires >= before + 20 * MINUTE && expires <= Date.now() + 20 * MINUTE, held.hold_expires_at);

  // A hold can be set on a live booking, by length or by time.
  const shorter = await c.api.patch(`/appointments/${second.id}`, { hold_minutes: 5 });
  t.true(Math.abs(Date.parse(shorter.body.payload.hold_expires_at) - (Date.now() + 5 * MINUTE)) < 10 * SECOND);
  const until = inMs(10 * MINUTE);
  t.is((await c.api.patch(`/appointments/${second.id}`, { hold_until: until })).body.payload.hold_expires_at, new Date(until).toISOString());
  const late = await c.api.patch(`/appointments/${second.id}`, { hold_until: inMs(24 * 60 * MINUTE) });
  t.deepEqual([late.status, late.body.details], [422, { hold_until: ["must not be after starts_at"] }]);
});

test("subscribers see the hold's expiry (appointment.cancelled with its reason) and each reminder sent", async (t) => {
  const c = await liveClinic(h);
  await c.api.patch("/settings", { reminder_offsets_minutes: [1] });
  const reminded = await bookFor(c, inMs(MINUTE + 4 * SECOND));
  const held = await bookFor(c, inMs(3 * 60 * MINUTE), { hold_until: inMs(3 * SECOND) });
  const events = await eventually(
    () => h.knex("events").where({ account_id: c.account.id }).where("name", "like", "appointment.%").orderBy("id").select("name", "payload"),
    (rows) => rows.some((row) => row.name === "appointment.reminder_sent") && rows.some((row) => row.name === "appointment.cancelled"),
    "the reminder and the expiry to be emitted",
    30_000,
  );
  t.like(events.find((e) => e.name === "appointment.cancelled")!.payload, {
    event: "appointment.cancelled",
    id: held.id,
    status: "cancelled",
    cancellation_reason: HOLD_EXPIRED_REASON,
  });
  t.like(events.find((e) => e.name === "appointment.reminder_sent")!.payload, {
    event: "appointment.reminder_sent",
    id: reminded.id,
    reminder: { offset_minutes: 1 },
    account: { id: c.account.id },
  });
});
