import test from "ava";
import { useHarness } from "../support/harness";
import { at, book, clinic, type Clinic } from "./bookingSupport";

const h = useHarness(test);

/**
 * The clinic's resource (40% of a 10 000 consultation) and two more working Mondays: a dearer one
 * (14 000, a fixed 5 000) and a cheaper one (6 000, 50%), each through its own price of the service.
 */
async function threeDoctors(c: Clinic) {
  const resource = async (name: string, price: number, compensation_type: string, compensation_value: number) => {
    const created = await c.api.create("/resources", { name, compensation_type: "percent", compensation_value: 10 });
    await c.api.patch(`/resources/${created.id}/work_rules`, { rules: [{ weekday: 1, start_minute: 540, end_minute: 1080 }] });
    return { id: created.id as number, price, compensation_type, compensation_value };
  };
  const dear = await resource("Dr. Dear", 14_000, "fixed", 5000);
  const cheap = await resource("Dr. Cheap", 6000, "percent", 50);
  // The list replaces every price of the service: the clinic's own resource keeps its row.
  const own = { id: c.resource.id, price: 10_000, compensation_type: "percent", compensation_value: 40 };
  await c.api.patch(`/services/${c.service.id}`, {
    prices: [own, dear, cheap].map(({ id, price, compensation_type, compensation_value }) => ({
      resource_id: id,
      price,
      compensation_type,
      compensation_value,
    })),
  });
  return { dear, cheap };
}

async function paidBooking(c: Clinic, time = "09:00") {
  const booked = await book(c.api, { resource_id: c.resource.id, service_id: c.service.id, contact_id: c.contact.id, starts_at: at(time) });
  return (await c.api.post(`/appointments/${booked.id}/payments`, { payment_method: "card" })).body.payload;
}

const expenses = async (c: Clinic, appointmentId: number) =>
  (await c.api.get("/expenses")).body.payload
    .filter((e: { appointment_id: number }) => e.appointment_id === appointmentId)
    .map((e: { resource_id: number; kind: string; amount: number; status: string }) => [e.resource_id, e.kind, e.amount, e.status]);

test("moved to a dearer resource, a paid booking keeps its price and stays paid; its unpaid expense follows with the new compensation", async (t) => {
  const c = await clinic(h);
  const { dear } = await threeDoctors(c);
  const paid = await paidBooking(c);
  t.like(paid.expense, { amount: 4000, status: "unpaid" });

  const moved = await c.api.patch(`/appointments/${paid.id}`, { resource_id: dear.id });
  t.is(moved.status, 200);
  t.like(moved.body.payload, {
    resource_id: dear.id,
    service_amount: 10_000,
    payment_status: "paid",
    compensation_type_snapshot: "fixed",
    compensation_value_snapshot: 5000,
    expense: { id: paid.expense.id, amount: 5000, status: "unpaid" },
  });
  t.deepEqual(await expenses(c, paid.id), [[dear.id, "compensation", 5000, "unpaid"]]);
});

test("moved to a cheaper resource, a paid booking is not refused: it keeps its price", async (t) => {
  const c = await clinic(h);
  const { cheap } = await threeDoctors(c);
  const paid = await paidBooking(c);
  const moved = await c.api.patch(`/appointments/${paid.id}`, { resource_id: cheap.id });
  t.is(moved.status, 200);
  t.like(moved.body.payload, { resource_id: cheap.id, service_amount: 10_000, payment_status: "paid", expense: { amount: 5000, status: "unpaid" } });
});

test("reprice takes the new resource's price: dearer leaves a balance to pay; cheaper than what was paid needs the difference refunded first", async (t) => {
  const c = await clinic(h);
  const { dear, cheap } = await threeDoctors(c);
  const first = await paidBooking(c, "09:00");
  const dearer = await c.api.patch(`/appointments/${first.id}`, { resource_id: dear.id, reprice: "true" });
  t.like(dearer.body.payload, { service_amount: 14_000, payment_status: "prepaid", expense: null });
  t.deepEqual(await expenses(c, first.id), [], "not paid in full: the unpaid expense is withdrawn until it is");
  const settled = await c.api.post(`/appointments/${first.id}/payments`, { payment_method: "cash" });
  t.like(settled.body.payload, { settlement_amount: 14_000, payment_status: "paid", expense: { amount: 5000 } });

  const second = await paidBooking(c, "10:00");
  const refused = await c.api.patch(`/appointments/${second.id}`, { resource_id: cheap.id, reprice: true });
  t.deepEqual(
    [refused.status, refused.body],
    [422, { error: "Total received amount cannot exceed service_amount: refund the difference first", code: "VALIDATION_ERROR" }],
  );
  await c.api.post(`/appointments/${second.id}/refunds`, { amount: 4000, reason: "Cheaper doctor" });
  const repriced = await c.api.patch(`/appointments/${second.id}`, { resource_id: cheap.id, reprice: true });
  t.is(repriced.status, 200);
  t.like(repriced.body.payload, { resource_id: cheap.id, service_amount: 6000, refunded_amount: 4000, payment_status: "paid", expense: { amount: 3000 } });

  // Without a move, reprice alone takes the current price of the resource it is with.
  await c.api.patch(`/services/${c.service.id}`, { prices: [{ resource_id: dear.id, price: 15_000, compensation_type: "fixed", compensation_value: 5000 }] });
  t.like((await c.api.patch(`/appointments/${first.id}`, { notes: "kept" })).body.payload, { service_amount: 14_000 });
  t.like((await c.api.patch(`/appointments/${first.id}`, { reprice: 1 })).body.payload, { service_amount: 15_000, payment_status: "prepaid" });
});

test("a booking whose expense was paid out moves: the paid expense stays, an adjustment claws it back, and the new resource earns its own", async (t) => {
  const c = await clinic(h);
  const { dear, cheap } = await threeDoctors(c);
  const paid = await paidBooking(c);
  t.is((await c.api.post(`/expenses/${paid.expense.id}/pay`, {})).status, 200);

  const moved = await c.api.patch(`/appointments/${paid.id}`, { resource_id: dear.id });
  t.is(moved.status, 200);
  t.like(moved.body.payload, { resource_id: dear.id, payment_status: "paid", expense: { amount: 5000, status: "unpaid" } });
  t.deepEqual(await expenses(c, paid.id), [
    [c.resource.id, "compensation", 4000, "paid"],
    [dear.id, "compensation", 5000, "unpaid"],
    [c.resource.id, "adjustment", -4000, "unpaid"],
  ]);

  // Paying the claw-back settles it; moving on, the new resource's unpaid compensation follows again.
  const clawBack = (await c.api.get(`/expenses?resource_ids=${c.resource.id}&status=unpaid`)).body.payload[0];
  t.like((await c.api.post(`/expenses/${clawBack.id}/pay`, {})).body.payload, { kind: "adjustment", amount: -4000, status: "paid" });
  await c.api.patch(`/appointments/${paid.id}`, { resource_id: cheap.id });
  t.deepEqual(await expenses(c, paid.id), [
    [c.resource.id, "compensation", 4000, "paid"],
    [cheap.id, "compensation", 5000, "unpaid"],
    [c.resource.id, "adjustment", -4000, "paid"],
  ]);

  // Back where it was paid out: that compensation is the booking's again, and the claw-back is undone.
  const back = await c.api.patch(`/appointments/${paid.id}`, { resource_id: c.resource.id });
  t.like(back.body.payload, { resource_id: c.resource.id, expense: { amount: 4000, status: "paid" } });
  t.deepEqual(await expenses(c, paid.id), [
    [c.resource.id, "compensation", 4000, "paid"],
    [c.resource.id, "adjustment", -4000, "paid"],
    [c.resource.id, "adjustment", 4000, "unpaid"],
  ]);
  const owed = (await c.api.get(`/expenses?resource_ids=${c.resource.id}`)).body.payload.reduce((sum: number, e: { amount: number }) => sum + e.amount, 0);
  t.is(owed, 4000, "the resource is owed exactly one visit");
});
