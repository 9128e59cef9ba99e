import test from "ava";
import { useHarness } from "../support/harness";
import { at, book, clinic, type Clinic, MONDAY } from "./bookingSupport";

const h = useHarness(test);

type Entry = { payment_kind: string; amount: number; payment_method: string };
const journal = (appointment: { payments: Entry[] }) => appointment.payments.map((p) => `${p.payment_kind}:${p.amount}:${p.payment_method}`);

/** A 10 000 consultation paid in full (4 000 prepaid in cash, 6 000 by card): its expense is 4 000, unpaid. */
async function paidConsultation(c: Clinic, time = "09:00") {
  const appointment = await book(c.api, {
    resource_id: c.resource.id,
    service_id: c.service.id,
    contact_id: c.contact.id,
    starts_at: at(time),
    prepaid_amount: 4000,
    prepaid_payment_method: "cash",
  });
  return (await c.api.post(`/appointments/${appointment.id}/payments`, { payment_method: "card" })).body.payload;
}

test("refunds are entries of their own, partial then full, never more than was paid; the status follows and nothing is erased", async (t) => {
  const c = await clinic(h);
  const paid = await paidConsultation(c);
  const refund = (body: unknown) => c.api.post(`/appointments/${paid.id}/refunds`, body);

  const partial = await refund({ amount: 1500, payment_method: "cash", reason: "Late start" });
  t.is(partial.status, 200);
  t.like(partial.body.payload, { payment_status: "partially_refunded", prepaid_amount: 4000, settlement_amount: 6000, refunded_amount: 1500 });
  t.deepEqual(journal(partial.body.payload), ["prepaid:4000:cash", "payment:6000:card", "refund:1500:cash"]);
  t.like(partial.body.payload.expense, { amount: 4000, status: "unpaid" }, "a partial refund leaves the resource's share of the price");

  const over = await refund({ amount: 8501 });
  t.deepEqual([over.status, over.body], [422, { error: "Refund amount exceeds what was paid and not yet refunded (8500)", code: "VALIDATION_ERROR" }]);
  t.deepEqual((await refund({ amount: 0 })).body, { error: "Refund amount must be greater than 0", code: "VALIDATION_ERROR" });
  t.deepEqual((await refund({ payment_method: "cheque" })).body.details, { payment_method: ["is not included in the list"] });

  // The rest, by default by the method the money last came in by.
  const rest = await refund({ reason: "Doctor ill" });
  t.like(rest.body.payload, { payment_status: "refunded", refunded_amount: 10_000, expense: null });
  t.deepEqual(journal(rest.body.payload), ["prepaid:4000:cash", "payment:6000:card", "refund:1500:cash", "refund:8500:card"]);
  t.deepEqual((await refund({})).body, { error: "Nothing left to refund", code: "VALIDATION_ERROR" });
  t.deepEqual((await c.api.post(`/appointments/${paid.id}/payments`, { payment_method: "cash" })).body, {
    error: "Refunded payments cannot be updated",
    code: "VALIDATION_ERROR",
  });
  const lowered = await c.api.patch(`/appointments/${paid.id}`, { settlement_amount: 0 });
  t.deepEqual(lowered.body, { error: "Total received amount cannot be less than the refunded amount", code: "VALIDATION_ERROR" });

  // Who, when and why, in the payments index (filterable) and in the calendar, both lists.
  const index = await c.api.get("/payments?payment_kinds=refund");
  t.deepEqual(
    index.body.payload.map((p: Record<string, unknown>) => [p.appointment_id, p.amount, p.payment_method, p.recorded_by_id, p.reason]),
    [
      [paid.id, 1500, "cash", c.account.admin.id, "Late start"],
      [paid.id, 8500, "card", c.account.admin.id, "Doctor ill"],
    ],
  );
  t.true(index.body.payload.every((p: { created_at: string }) => Date.now() - Date.parse(p.created_at) < 60_000));
  const calendar = (await c.api.get(`/calendar?view=day&from=${MONDAY}&to=2030-03-05`)).body.payload;
  t.deepEqual(
    calendar.payments.filter((p: Entry) => p.payment_kind === "refund").map((p: Entry & { reason: string }) => [p.amount, p.reason]),
    [
      [1500, "Late start"],
      [8500, "Doctor ill"],
    ],
  );
  t.deepEqual(journal(calendar.appointments[0]), journal(rest.body.payload));
  t.like(calendar.appointments[0], { refunded_amount: 10_000, payment_status: "refunded" });
});

test("only administrators refund; agents get 401 on both routes", async (t) => {
  const c = await clinic(h);
  const paid = await paidConsultation(c);
  const agent = c.account.agent.token;
  const denied = await c.api.post(`/appointments/${paid.id}/refunds`, { amount: 100 }, agent);
  t.deepEqual([denied.status, denied.body], [401, { error: "You are not authorized to do this action" }]);
  t.is((await c.api.delete(`/appointments/${paid.id}/payments`, agent)).status, 401);
  t.like((await c.api.get(`/appointments/${paid.id}`)).body.payload, { payment_status: "paid", refunded_amount: 0 });
  t.is((await c.api.get(`/appointments/${paid.id}`, agent)).status, 200, "agents still read it");
});

test("refunding after the payout: the paid expense stays on the record", async (t) => {
  const c = await clinic(h);
  const paid = await paidConsultation(c);
  await c.api.post(`/expenses/${paid.expense.id}/pay`, {});
  const refunded = await c.api.post(`/appointments/${paid.id}/refunds`, { reason: "Complaint" });
  t.like(refunded.body.payload, { payment_status: "refunded", refunded_amount: 10_000, expense: { amount: 4000, status: "paid" } });
});

test("a cancelled booking refunded in part stays cancelled, refunded in full says refunded", async (t) => {
  const c = await clinic(h);
  const paid = await paidConsultation(c);
  await c.api.post(`/appointments/${paid.id}/cancel`, {});
  const part = await c.api.post(`/appointments/${paid.id}/refunds`, { amount: 4000 });
  t.like(part.body.payload, { status: "cancelled", payment_status: "cancelled", refunded_amount: 4000 });
  const all = await c.api.post(`/appointments/${paid.id}/refunds`, {});
  t.like(all.body.payload, { status: "cancelled", payment_status: "refunded", refunded_amount: 10_000 });
});

test("an appointment with any money movement cannot be deleted, even once all is refunded: it stays cancelled", async (t) => {
  const c = await clinic(h);
  const paid = await paidConsultation(c);
  t.is((await c.api.delete(`/appointments/${paid.id}/payments`)).status, 200);
  await c.api.post(`/appointments/${paid.id}/cancel`, {});
  const refused = await c.api.delete(`/appointments/${paid.id}`);
  t.deepEqual([refused.status, refused.body], [422, { error: "Historical finance data prevents appointment deletion", code: "HISTORICAL_DATA_RETAINED" }]);
  t.like((await c.api.get(`/appointments/${paid.id}`)).body.payload, { status: "cancelled", payment_status: "refunded" });
  t.is((await h.knex("scheduling_payments").where("appointment_id", paid.id)).length, 3);

  const unpaid = await book(c.api, { resource_id: c.resource.id, service_id: c.service.id, client_name: "Never paid", starts_at: at("11:00") });
  await c.api.post(`/appointments/${unpaid.id}/cancel`, {});
  t.is((await c.api.delete(`/appointments/${unpaid.id}`)).status, 204);
});

test("50 simultaneous refunds never give back more than was paid", async (t) => {
  const c = await clinic(h);
  const paid = await paidConsultation(c);
  const results = await Promise.all(Array.from({ length: 50 }, () => c.api.post(`/appointments/${paid.id}/refunds`, { amount: 300, payment_method: "cash" })));
  t.is(results.filter((r) => r.status === 200).length, 33);
  t.true(results.filter((r) => r.status !== 200).every((r) => r.status === 422 && r.body.error.startsWith("Refund amount exceeds")));
  const after = (await c.api.get(`/appointments/${paid.id}`)).body.payload;
  t.like(after, { refunded_amount: 9900, payment_status: "partially_refunded" });
  const [{ total }] = await h
    .knex("scheduling_payments")
    .where({ appointment_id: paid.id, payment_kind: "refund" })
    .sum<{ total: string }[]>("amount as total");
  t.is(Number(total), 9900);

  // Full refunds racing: one wins, the rest find nothing left.
  const other = await paidConsultation(c, "10:00");
  const full = await Promise.all(Array.from({ length: 50 }, () => c.api.post(`/appointments/${other.id}/refunds`, {})));
  t.is(full.filter((r) => r.status === 200).length, 1);
  t.like((await c.api.get(`/appointments/${other.id}`)).body.payload, { refunded_amount: 10_000, payment_status: "refunded" });
});
