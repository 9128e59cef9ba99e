import test from "ava";
import { useHarness } from "../support/harness";
import { book, clinic, type Clinic } from "./bookingSupport";

const h = useHarness(test);

/** A past week (Monday 2026-03-02) in Almaty, so visits can be recorded as completed or no_show. */
const at = (date: string, time: string) => `${date}T${time}:00+05:00`;

const counts = (partial: Record<string, number>) => ({ scheduled: 0, confirmed: 0, completed: 0, cancelled: 0, no_show: 0, ...partial });

/**
 * Dr. Booking (Consultation, 10 000, 30 min) and Dr. Second (Cleaning, 25 000, 60 min), and:
 * Mon: Dr. Booking 09:00 completed, paid 10 000; 10:00 no_show, nothing paid.
 * Tue: Dr. Booking 09:00 scheduled, 4 000 prepaid, 1 500 of it refunded; Dr. Second 09:00 confirmed, nothing paid.
 * Wed: Dr. Second 09:00, 5 000 prepaid, then cancelled.
 * Fri: Dr. Booking 09:00, outside the range the tests ask for.
 */
async function week(c: Clinic) {
  const second = await c.api.create("/resources", { name: "Dr. Second", compensation_type: "percent", compensation_value: 40 });
  await c.api.patch(`/resources/${second.id}/work_rules`, { rules: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_minute: 540, end_minute: 1080 })) });
  const cleaning = await c.api.create("/services", {
    name: "Cleaning",
    base_price: 25_000,
    duration_min: 60,
    prices: [{ resource_id: second.id, price: 25_000, compensation_type: "percent", compensation_value: 40 }],
  });
  const visit = (resourceId: number, serviceId: number, startsAt: string, extra: Record<string, unknown> = {}) =>
    book(c.api, { resource_id: resourceId, service_id: serviceId, contact_id: c.contact.id, starts_at: startsAt, record_past_visit: true, ...extra });
  const cash = (amount: number) => ({ prepaid_amount: amount, prepaid_payment_method: "cash" });
  await visit(c.resource.id, c.service.id, at("2026-03-02", "09:00"), { status: "completed", ...cash(10_000) });
  await visit(c.resource.id, c.service.id, at("2026-03-02", "10:00"), { status: "no_show" });
  const refunded = await visit(c.resource.id, c.service.id, at("2026-03-03", "09:00"), cash(4000));
  const refund = await c.api.post(`/appointments/${refunded.id}/refunds`, { amount: 1500 });
  if (refund.status !== 200) throw new Error(`refund: ${refund.status} ${JSON.stringify(refund.body)}`);
  await visit(second.id, cleaning.id, at("2026-03-03", "09:00"), { status: "confirmed" });
  const cancelled = await visit(second.id, cleaning.id, at("2026-03-04", "09:00"), cash(5000));
  if ((await c.api.post(`/appointments/${cancelled.id}/cancel`, {})).status !== 200) throw new Error("cancel");
  await visit(c.resource.id, c.service.id, at("2026-03-06", "09:00"));
  return { second, cleaning };
}

const report = (c: Clinic, query: string, token?: string) => c.api.get(`/reports/meetings?${query}`, token);
const RANGE = "from=2026-03-02&to=2026-03-06";

const consultation = {
  counts: counts({ completed: 1, no_show: 1, scheduled: 1, total: 3 }),
  booked_minutes: 90,
  charged: 30_000,
  paid: 14_000,
  refunded: 1500,
};
const cleaningFigures = { counts: counts({ confirmed: 1, cancelled: 1, total: 2 }), booked_minutes: 60, charged: 25_000, paid: 5000, refunded: 0 };
const totals = {
  counts: counts({ scheduled: 1, confirmed: 1, completed: 1, cancelled: 1, no_show: 1, total: 5 }),
  booked_minutes: 150,
  charged: 55_000,
  paid: 19_000,
  refunded: 1500,
};

test("meetings by resource, service and day, against the figures worked out by hand", async (t) => {
  const c = await clinic(h);
  const { second, cleaning } = await week(c);

  const byResource = await report(c, `${RANGE}&group_by=resource`);
  t.is(byResource.status, 200);
  t.deepEqual(byResource.body.payload, {
    from: "2026-03-02T00:00:00+05:00",
    to: "2026-03-06T00:00:00+05:00",
    timezone: "Asia/Almaty",
    group_by: "resource",
    groups: [
      { resource_id: c.resource.id, resource_name: "Dr. Booking", ...consultation },
      { resource_id: second.id, resource_name: "Dr. Second", ...cleaningFigures },
    ],
    totals,
  });

  const byService = (await report(c, `${RANGE}&group_by=service`)).body.payload;
  t.deepEqual(byService.groups, [
    { service_id: cleaning.id, service_name: "Cleaning", ...cleaningFigures },
    { service_id: c.service.id, service_name: "Consultation", ...consultation },
  ]);

  const byDay = (await report(c, `${RANGE}&group_by=day`)).body.payload;
  t.deepEqual(byDay.groups, [
    { date: "2026-03-02", counts: counts({ completed: 1, no_show: 1, total: 2 }), booked_minutes: 60, charged: 20_000, paid: 10_000, refunded: 0 },
    { date: "2026-03-03", counts: counts({ scheduled: 1, confirmed: 1, total: 2 }), booked_minutes: 90, charged: 35_000, paid: 4000, refunded: 1500 },
    { date: "2026-03-04", counts: counts({ cancelled: 1, total: 1 }), booked_minutes: 0, charged: 0, paid: 5000, refunded: 0 },
  ]);
  t.deepEqual(byDay.totals, totals);

  // No grouping: the totals alone. Filters narrow both.
  t.deepEqual((await report(c, RANGE)).body.payload.groups, []);
  t.deepEqual((await report(c, `${RANGE}&resource_ids=${second.id}`)).body.payload.totals, cleaningFigures);
  t.deepEqual((await report(c, `${RANGE}&service_ids=${c.service.id},${c.service.id}&group_by=resource`)).body.payload.groups, [
    { resource_id: c.resource.id, resource_name: "Dr. Booking", ...consultation },
  ]);
  // Friday's visit counts once the range takes it in; the range is read in the account's zone.
  t.is((await report(c, "from=2026-03-02&to=2026-03-07")).body.payload.totals.counts.total, 6);
  t.is((await report(c, "from=2026-03-06T04:00:00Z&to=2026-03-06T04:00:01Z")).body.payload.totals.counts.total, 1, "09:00 in Almaty");
});

test("the report refuses bad ranges and groups, unknown resources or services, and agents", async (t) => {
  const c = await clinic(h);
  const other = await clinic(h, "Other clinic");
  const refused = async (query: string) => (await report(c, query)).status;
  t.is(await refused("to=2026-03-06"), 422);
  t.is(await refused("from=2026-03-06&to=2026-03-02"), 422);
  t.is(await refused("from=2026-01-01&to=2027-01-03"), 422, "more than 366 days");
  // 366 calendar days in Almaty, which moved from +06:00 to +05:00 on 2024-03-01.
  t.is((await report(c, "from=2024-01-01&to=2025-01-01")).status, 200, "a leap year across an offset change");
  t.is(await refused(`${RANGE}&group_by=week`), 422);
  t.is(await refused(`${RANGE}&resource_ids=${other.resource.id}`), 404);
  t.is(await refused(`${RANGE}&service_ids=${other.service.id}`), 404);
  t.is((await report(c, RANGE, c.account.agent.token)).status, 401);
});
