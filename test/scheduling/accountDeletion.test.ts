import { setTimeout } from "node:timers/promises";
import test from "ava";
import { accountDeletionWorkflowId } from "../../src/temporal/contracts";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { schedulingApi } from "./support";

const h = useHarness(test, { worker: true });

const SCHEDULING_TABLES = [
  "scheduling_resources",
  "scheduling_work_rules",
  "scheduling_break_rules",
  "scheduling_holidays",
  "scheduling_workday_overrides",
  "scheduling_time_offs",
  "scheduling_services",
  "scheduling_service_prices",
  "scheduling_appointments",
  "scheduling_payments",
  "scheduling_expenses",
  "scheduling_appointment_notices",
  "scheduling_settings",
];

/**
 * Every kind of scheduling row for the account, the booking side inserted directly (so that no
 * workflow races the deletion): a paid appointment with its payments, its resource's expense and a
 * notice its workflow posted, and the account's scheduling settings.
 */
async function fillScheduling(account: TestAccount) {
  const api = schedulingApi(h, account);
  const resource = await api.create("/resources", { name: "Dr. Gone" });
  const spare = await api.create("/resources", { name: "Dr. Spare" });
  await api.patch(`/resources/${resource.id}/work_rules`, { rules: [{ weekday: 1, start_minute: 540, end_minute: 1080 }] });
  await api.patch(`/resources/${resource.id}/break_rules`, { rules: [{ weekday: 1, start_minute: 780, end_minute: 840 }] });
  await api.create("/holidays", { date: "2026-03-08", title: "Women's Day", recurring_yearly: true });
  await api.create("/workday_overrides", { resource_id: resource.id, date: "2026-03-09", start_minute: 600, end_minute: 720 });
  await api.create("/time_offs", { resource_id: spare.id, kind: "vacation", starts_at: "2026-03-10", ends_at: "2026-03-12" });
  await api.create("/time_offs", { kind: "day_off", starts_at: "2026-03-21", ends_at: "2026-03-22" });
  const service = await api.create("/services", {
    name: "Consultation",
    base_price: 5000,
    prices: [
      { resource_id: resource.id, price: 6000 },
      { resource_id: spare.id, price: 7000 },
    ],
  });
  const contact = await api.create("/contacts", { full_name: "Aidos Seitkali", phone: "87012345678", iin: "940720300129" });

  const [appointment] = await h
    .knex("scheduling_appointments")
    .insert({
      account_id: account.id,
      resource_id: resource.id,
      service_id: service.id,
      contact_id: contact.id,
      created_by_id: account.admin.id,
      starts_at: "2026-03-02T04:00:00Z",
      ends_at: "2026-03-02T04:30:00Z",
      duration_min: 30,
      client_name: "Aidos Seitkali",
      payment_status: "paid",
      service_amount: 6000,
      prepaid_amount: 2000,
      prepaid_payment_method: "kaspi_qr",
      settlement_amount: 4000,
      settlement_payment_method: "cash",
      compensation_type_snapshot: "percent",
      compensation_value_snapshot: 40,
    })
    .returning("*");
  await h.knex("scheduling_payments").insert([
    { account_id: account.id, appointment_id: appointment.id, amount: 2000, payment_method: "kaspi_qr", payment_kind: "prepaid" },
    { account_id: account.id, appointment_id: appointment.id, amount: 4000, payment_method: "cash", payment_kind: "payment", recorded_by_id: account.admin.id },
  ]);
  await h.knex("scheduling_expenses").insert({
    account_id: account.id,
    appointment_id: appointment.id,
    resource_id: resource.id,
    amount: 2400,
    status: "paid",
    paid_at: new Date(),
    paid_by_id: account.admin.id,
  });
  await h
    .knex("scheduling_appointment_notices")
    .insert({ account_id: account.id, appointment_id: appointment.id, kind: "confirmation", key: "1:confirmation" });
  await api.patch("/settings", { reminder_offsets_minutes: [60] });
  return { contact };
}

async function rowCounts(accountId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of SCHEDULING_TABLES) {
    const [{ count }] = await h.knex(table).where("account_id", accountId).count<{ count: string }[]>("* as count");
    counts[table] = Number(count);
  }
  return counts;
}

test("deleting an account removes every scheduling row it owns and nothing of another account", async (t) => {
  const account = await createAccount(h, "Closing clinic");
  const other = await createAccount(h, "Staying clinic");
  const { contact } = await fillScheduling(account);
  await fillScheduling(other);

  const expected = {
    scheduling_resources: 2,
    scheduling_work_rules: 1,
    scheduling_break_rules: 1,
    scheduling_holidays: 1,
    scheduling_workday_overrides: 1,
    scheduling_time_offs: 2,
    scheduling_services: 1,
    scheduling_service_prices: 2,
    scheduling_appointments: 1,
    scheduling_payments: 2,
    scheduling_expenses: 1,
    scheduling_appointment_notices: 1,
    scheduling_settings: 1,
  };
  t.deepEqual(await rowCounts(account.id), expected, "every table has rows before the deletion");

  const deleted = await h.request("DELETE", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken });
  t.is(deleted.status, 200);
  // A step order that breaks a foreign key makes the workflow retry for ever: give up in time and
  // show which rows are left.
  const workflow = h.deps.temporal.client.workflow.getHandle(accountDeletionWorkflowId(h.deps.temporal.installationId, account.id));
  const result = await Promise.race([workflow.result(), setTimeout(30_000, undefined)]);
  if (!result) await workflow.terminate("the deletion did not finish in time");
  t.true((result?.deletedRows ?? 0) >= Object.values(expected).reduce((sum, n) => sum + n, 0), "the deletion workflow finished");

  t.deepEqual(await rowCounts(account.id), Object.fromEntries(SCHEDULING_TABLES.map((table) => [table, 0])));
  t.is(await h.knex("contacts").where("id", contact.id).first(), undefined, "the scheduling contact goes with the account");
  t.is(await h.knex("accounts").where("id", account.id).first(), undefined);
  t.deepEqual(await rowCounts(other.id), expected, "the other account keeps all of its scheduling data");
});
