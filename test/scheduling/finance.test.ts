import test from "ava";
import { payExpenseBatch, type PayoutInput } from "../../src/scheduling/ledger";
import { expensePayoutWorkflowId } from "../../src/temporal/contracts";
import { addToAccount, createUser } from "../support/factories";
import { useHarness } from "../support/harness";
import { at, book, clinic, type Clinic } from "./bookingSupport";

// Small batches, so a handful of expenses takes several activities.
const h = useHarness(test, { worker: true, settings: { payoutBatchSize: 2 } });

const journal = (appointment: { payments: { payment_kind: string; amount: number; payment_method: string }[] }) =>
  appointment.payments.map((p) => `${p.payment_kind}:${p.amount}:${p.payment_method}`);

async function consultation(c: Clinic, time = "09:00", extra: Record<string, unknown> = {}) {
  return book(c.api, { resource_id: c.resource.id, service_id: c.service.id, contact_id: c.contact.id, starts_at: at(time), ...extra });
}

test("payments: partial, then the remaining balance by default, then nothing more; the expense follows by percent", async (t) => {
  const c = await clinic(h);
  const appointment = await consultation(c);
  const pay = (body: unknown) => c.api.post(`/appointments/${appointment.id}/payments`, body);

  const partial = await pay({ amount: 3000, payment_method: "kaspi_qr" });
  t.is(partial.status, 200);
  t.like(partial.body.payload, { payment_status: "prepaid", settlement_amount: 3000, settlement_payment_method: "kaspi_qr", expense: null });
  t.deepEqual(journal(partial.body.payload), ["payment:3000:kaspi_qr"]);

  const over = await pay({ amount: 7001, payment_method: "cash" });
  t.deepEqual([over.status, over.body], [422, { error: "Payment amount exceeds remaining balance", code: "VALIDATION_ERROR" }]);
  const zero = await pay({ amount: 0, payment_method: "cash" });
  t.deepEqual(zero.body, { error: "Payment amount must be greater than 0", code: "VALIDATION_ERROR" });
  const noMethod = await pay({ amount: 10 });
  t.deepEqual([noMethod.status, noMethod.body.details], [422, { payment_method: ["is not included in the list"] }]);

  const rest = await pay({ payment_method: "card" });
  const paid = rest.body.payload;
  t.like(paid, { payment_status: "paid", settlement_amount: 10_000, settlement_payment_method: "card" });
  t.deepEqual(journal(paid), ["payment:3000:kaspi_qr", "payment:7000:card"]);
  t.like(paid.expense, { amount: 4000, status: "unpaid" });

  const nothingLeft = await pay({ payment_method: "cash" });
  t.deepEqual(nothingLeft.body, { error: "Payment amount must be greater than 0", code: "VALIDATION_ERROR" });
  const rows = await h.knex("scheduling_payments").where("appointment_id", appointment.id).orderBy("id").select("recorded_by_id", "payment_kind");
  t.deepEqual(rows, [
    { recorded_by_id: c.account.admin.id, payment_kind: "payment" },
    { recorded_by_id: c.account.admin.id, payment_kind: "payment" },
  ]);

  const missing = await c.api.post(`/appointments/${appointment.id + 1000}/payments`, { payment_method: "cash" });
  t.deepEqual([missing.status, missing.body], [404, { error: "Appointment not found", code: "APPOINTMENT_NOT_FOUND" }]);
});

test("the journal mirrors prepaid and settlement amounts; totals and methods are checked; a fixed compensation is the expense", async (t) => {
  const c = await clinic(h);
  await c.api.patch(`/services/${c.service.id}`, {
    prices: [{ resource_id: c.resource.id, price: 8000, compensation_type: "fixed", compensation_value: 2500 }],
  });
  const appointment = await consultation(c, "10:00", { prepaid_amount: 2000, prepaid_payment_method: "kaspi_transfer" });
  t.like(appointment, { service_amount: 8000, payment_status: "prepaid" });
  t.deepEqual(journal(appointment), ["prepaid:2000:kaspi_transfer"]);

  const recorded = await c.api.post(`/appointments/${appointment.id}/payments`, { amount: 1000, payment_method: "cash" });
  t.deepEqual(journal(recorded.body.payload), ["prepaid:2000:kaspi_transfer", "payment:1000:cash"]);

  const settled = await c.api.patch(`/appointments/${appointment.id}`, { settlement_amount: 6000, settlement_payment_method: "bank_transfer" });
  const payload = settled.body.payload;
  t.like(payload, { payment_status: "paid", settlement_amount: 6000 });
  t.deepEqual(journal(payload), ["prepaid:2000:kaspi_transfer", "payment:1000:cash", "adjustment:5000:bank_transfer"]);
  t.like(payload.expense, { amount: 2500, status: "unpaid" });

  const below = await c.api.patch(`/appointments/${appointment.id}`, { settlement_amount: 500 });
  t.deepEqual([below.status, below.body], [422, { error: "settlement_amount cannot be less than the total of recorded payments", code: "VALIDATION_ERROR" }]);
  const beyond = await c.api.patch(`/appointments/${appointment.id}`, { prepaid_amount: 3000 });
  t.deepEqual(beyond.body, { error: "Total received amount cannot exceed service_amount", code: "VALIDATION_ERROR" });
  const methodless = await c.api.patch(`/appointments/${appointment.id}`, { prepaid_amount: 1000, prepaid_payment_method: null });
  t.deepEqual(methodless.body.details, { prepaid_payment_method: ["can't be blank"] });

  // Less received: no longer paid, so the unpaid expense goes.
  const lowered = await c.api.patch(`/appointments/${appointment.id}`, { prepaid_amount: 0 });
  t.like(lowered.body.payload, { payment_status: "prepaid", expense: null });
  t.deepEqual(journal(lowered.body.payload), ["payment:1000:cash", "adjustment:5000:bank_transfer"]);

  const free = await consultation(c, "11:00", { service_amount: 0 });
  const refusedFree = await c.api.post(`/appointments/${free.id}/payments`, { payment_method: "cash" });
  t.deepEqual(refusedFree.body, { error: "Set service_amount before adding payment", code: "VALIDATION_ERROR" });
});

test("DELETE payments, kept for the fork's clients, refunds what is left as an entry instead of erasing; once the expense is paid it is refused", async (t) => {
  const c = await clinic(h);
  const appointment = await consultation(c, "09:00", { prepaid_amount: 4000, prepaid_payment_method: "cash" });
  await c.api.post(`/appointments/${appointment.id}/payments`, { payment_method: "card" });

  const refunded = await c.api.delete(`/appointments/${appointment.id}/payments`);
  t.is(refunded.status, 200);
  t.like(refunded.body.payload, {
    payment_status: "refunded",
    prepaid_amount: 4000,
    settlement_amount: 6000,
    refunded_amount: 10_000,
    expense: null,
  });
  t.deepEqual(journal(refunded.body.payload), ["prepaid:4000:cash", "payment:6000:card", "refund:10000:card"]);
  t.is((await h.knex("scheduling_expenses").where("appointment_id", appointment.id)).length, 0);
  const afterRefund = await c.api.post(`/appointments/${appointment.id}/payments`, { payment_method: "card" });
  t.deepEqual(afterRefund.body, { error: "Refunded payments cannot be updated", code: "VALIDATION_ERROR" });

  // Nothing paid: the payment is cancelled, as the fork did.
  const unpaid = await consultation(c, "11:00");
  t.like((await c.api.delete(`/appointments/${unpaid.id}/payments`)).body.payload, { payment_status: "cancelled", refunded_amount: 0, payments: [] });

  const second = await consultation(c, "10:00");
  const paid = (await c.api.post(`/appointments/${second.id}/payments`, { payment_method: "cash" })).body.payload;
  const payout = await c.api.post(`/expenses/${paid.expense.id}/pay`, {});
  t.is(payout.status, 200);
  const refusedRefund = await c.api.delete(`/appointments/${second.id}/payments`);
  t.deepEqual(
    [refusedRefund.status, refusedRefund.body],
    [422, { error: "Cannot cancel payment after the resource's expense has been paid", code: "VALIDATION_ERROR" }],
  );
  t.like((await c.api.get(`/appointments/${second.id}`)).body.payload, { payment_status: "paid", settlement_amount: 10_000, expense: { status: "paid" } });
});

test("payments and expenses journals: filters, pay one, paying again keeps who and when", async (t) => {
  const c = await clinic(h);
  const other = await c.api.create("/resources", { name: "Dr. Fixed", compensation_type: "fixed", compensation_value: 1500 });
  await c.api.patch(`/resources/${other.id}/work_rules`, { rules: [{ weekday: 2, start_minute: 540, end_minute: 1080 }] });
  await c.api.patch(`/services/${c.service.id}`, {
    prices: [
      { resource_id: c.resource.id, price: 10_000, compensation_type: "percent", compensation_value: 40 },
      { resource_id: other.id, price: 10_000, compensation_type: "fixed", compensation_value: 1500 },
    ],
  });
  const a = await consultation(c, "09:00", { prepaid_amount: 1000, prepaid_payment_method: "kaspi_qr" });
  await c.api.post(`/appointments/${a.id}/payments`, { payment_method: "cash" });
  const b = await book(c.api, { resource_id: other.id, service_id: c.service.id, starts_at: at("09:00", "2030-03-05"), client_name: "B" });
  await c.api.post(`/appointments/${b.id}/payments`, { payment_method: "card" });

  const kinds = (response: { body: { payload: { payment_kind: string; payment_method: string; appointment_id: number }[] } }) =>
    response.body.payload.map((p) => `${p.appointment_id}:${p.payment_kind}:${p.payment_method}`);
  const all = await c.api.get("/payments");
  t.deepEqual(kinds(all), [`${a.id}:prepaid:kaspi_qr`, `${a.id}:payment:cash`, `${b.id}:payment:card`]);
  t.deepEqual(all.body.meta, { count: 3, current_page: 1, per_page: 100 });
  t.deepEqual(kinds(await c.api.get("/payments?payment_kinds=payment&payment_methods=card,cash")), [`${a.id}:payment:cash`, `${b.id}:payment:card`]);
  t.deepEqual(kinds(await c.api.get(`/payments?resource_ids=${other.id}`)), [`${b.id}:payment:card`]);
  t.deepEqual(kinds(await c.api.get(`/payments?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)), []);
  t.deepEqual((await c.api.get("/payments?payment_kinds=gift")).body.details, { payment_kinds: ["is not included in the list (gift)"] });

  const expenses = await c.api.get("/expenses");
  t.deepEqual(
    expenses.body.payload.map((e: { appointment_id: number; amount: number }) => [e.appointment_id, e.amount]),
    [
      [a.id, 4000],
      [b.id, 1500],
    ],
  );
  t.deepEqual(
    (await c.api.get(`/expenses?resource_ids=${other.id}`)).body.payload.map((e: { appointment_id: number }) => e.appointment_id),
    [b.id],
  );
  t.deepEqual(
    (await c.api.get(`/expenses?from=2030-03-05&to=2030-03-06`)).body.payload.map((e: { appointment_id: number }) => e.appointment_id),
    [b.id],
    "from/to apply to the appointment's start",
  );

  const expenseId = expenses.body.payload[0].id;
  const paid = await c.api.post(`/expenses/${expenseId}/pay`, {});
  t.like(paid.body.payload, { id: expenseId, status: "paid", paid_by_id: c.account.admin.id, payout_id: null });
  t.truthy(paid.body.payload.paid_at);
  const secondAdmin = await createSecondAdmin(c);
  const again = await c.api.post(`/expenses/${expenseId}/pay`, {}, secondAdmin);
  t.deepEqual(again.body.payload, paid.body.payload, "paid_at and paid_by are kept");
  t.deepEqual(
    (await c.api.get("/expenses?status=unpaid")).body.payload.map((e: { appointment_id: number }) => e.appointment_id),
    [b.id],
  );
  const missing = await c.api.post(`/expenses/${expenseId + 1000}/pay`, {});
  t.deepEqual([missing.status, missing.body], [404, { error: "Expense not found", code: "EXPENSE_NOT_FOUND" }]);
});

async function createSecondAdmin(c: Clinic): Promise<string> {
  const user = await createUser(h);
  await addToAccount(h, c.account.id, user.id, "administrator");
  return user.token;
}

/** A paid appointment (and so an unpaid expense) at each of the times. */
async function paidAppointments(c: Clinic, times: string[], date?: string) {
  const ids: number[] = [];
  for (const time of times) {
    const appointment = await book(c.api, { resource_id: c.resource.id, service_id: c.service.id, starts_at: at(time, date), client_name: "Paid" });
    await c.api.post(`/appointments/${appointment.id}/payments`, { payment_method: "cash" });
    ids.push(appointment.id);
  }
  return ids;
}

test("pay_all pays the matching unpaid expenses in batches through a workflow, keeping the ones paid before", async (t) => {
  const c = await clinic(h);
  const monday = await paidAppointments(c, ["09:00", "09:30", "10:00", "10:30", "11:00"]);
  const [tuesday] = await paidAppointments(c, ["09:00"], "2030-03-05");
  const earlier = await h.knex("scheduling_expenses").where("appointment_id", monday[1]).first();
  const paidBefore = (await c.api.post(`/expenses/${earlier.id}/pay`, {})).body.payload;

  const response = await c.api.post("/expenses/pay_all", { resource_ids: String(c.resource.id), from: "2030-03-04", to: "2030-03-05" });
  t.is(response.status, 202);
  const { payout_id, workflow_id, count, status } = response.body.payload;
  t.deepEqual({ count, status }, { count: 4, status: "running" });
  t.is(workflow_id, expensePayoutWorkflowId(h.deps.temporal.installationId, c.account.id, payout_id));
  t.deepEqual(await h.deps.temporal.client.workflow.getHandle(workflow_id).result(), { paid: 4 });

  const rows = await h
    .knex("scheduling_expenses")
    .whereIn("appointment_id", [...monday, tuesday!])
    .orderBy("appointment_id");
  t.deepEqual(
    rows.map((e) => [e.appointment_id, e.status, e.payout_id]),
    [...monday.map((id) => [id, "paid", id === monday[1] ? null : payout_id]), [tuesday!, "unpaid", null]],
  );
  const kept = rows.find((e) => e.appointment_id === monday[1]);
  t.is(kept.paid_at.toISOString(), paidBefore.paid_at, "an expense paid before keeps its paid_at");
  t.true(rows.filter((e) => e.payout_id === payout_id).every((e) => e.paid_by_id === c.account.admin.id && e.paid_at));

  const nothing = await c.api.post("/expenses/pay_all?from=2030-03-04&to=2030-03-05", {});
  t.is(nothing.body.payload.count, 0);
  t.deepEqual(await h.deps.temporal.client.workflow.getHandle(nothing.body.payload.workflow_id).result(), { paid: 0 });
  const bad = await c.api.post("/expenses/pay_all", { from: "soon" });
  t.deepEqual([bad.status, bad.body.details], [422, { from: ["is not a valid date-time"] }]);
});

test("a payout batch retried after it committed pays nothing twice and reports the same count", async (t) => {
  const c = await clinic(h);
  await paidAppointments(c, ["09:00", "09:30", "10:00"]);
  const [{ max }] = await h.knex("scheduling_expenses").where("account_id", c.account.id).max<{ max: number }[]>("id as max");
  const maxExpenseId = Number(max);
  const input: PayoutInput = {
    accountId: c.account.id,
    payoutId: "retry-test",
    userId: c.account.admin.id,
    filters: {},
    paidAt: new Date().toISOString(),
    maxExpenseId,
    batchSize: 2,
  };

  const first = await payExpenseBatch(h.knex, input, 0);
  const snapshot = await h.knex("scheduling_expenses").where("account_id", c.account.id).orderBy("id").select("id", "status", "paid_at", "payout_id");
  const retried = await payExpenseBatch(h.knex, input, 0);
  t.deepEqual(retried, first);
  t.is(first.paid, 2);
  t.deepEqual(await h.knex("scheduling_expenses").where("account_id", c.account.id).orderBy("id").select("id", "status", "paid_at", "payout_id"), snapshot);
  const last = await payExpenseBatch(h.knex, input, first.lastId!);
  t.is(last.paid, 1);
  t.deepEqual(await payExpenseBatch(h.knex, input, last.lastId!), { lastId: null, paid: 0 });
});

test("50 simultaneous payments never take more than the price; refunds racing payouts never leave a paid expense on a refunded booking", async (t) => {
  const c = await clinic(h);
  const appointment = await consultation(c, "09:00");
  const results = await Promise.all(
    Array.from({ length: 50 }, () => c.api.post(`/appointments/${appointment.id}/payments`, { amount: 300, payment_method: "cash" })),
  );
  t.is(results.filter((r) => r.status === 200).length, 33);
  t.true(results.filter((r) => r.status !== 200).every((r) => r.status === 422 && r.body.error === "Payment amount exceeds remaining balance"));
  const settled = (await c.api.get(`/appointments/${appointment.id}`)).body.payload;
  t.like(settled, { settlement_amount: 9900, payment_status: "prepaid" });
  t.is(settled.payments.length, 33);

  const ids = await paidAppointments(c, ["10:00", "10:30", "11:00", "11:30", "12:00"]);
  for (const id of ids) {
    const expense = await h.knex("scheduling_expenses").where("appointment_id", id).first();
    const [refund, payout] = await Promise.all([c.api.delete(`/appointments/${id}/payments`), c.api.post(`/expenses/${expense.id}/pay`, {})]);
    const after = (await c.api.get(`/appointments/${id}`)).body.payload;
    if (refund.status === 200) {
      t.is(payout.status, 404, "the refund went first: the expense was gone when the payout came");
      t.like(after, { payment_status: "refunded", expense: null });
    } else {
      t.deepEqual([refund.status, payout.status], [422, 200]);
      t.like(after, { payment_status: "paid", expense: { status: "paid" } });
    }
  }
});
