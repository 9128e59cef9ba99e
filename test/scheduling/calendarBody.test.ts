import test from "ava";
import { Expense, Payment } from "../../src/models/scheduling/Appointment";
import { Resource } from "../../src/models/scheduling/Resource";
import { currentExpense, presentAppointment, presentExpense, presentPayment } from "../../src/presenters/scheduling/appointments";
import { presentHoliday, presentTimeOff, presentWorkdayOverride } from "../../src/presenters/scheduling/exceptions";
import { presentBreakRule, presentResource, presentWorkRule } from "../../src/presenters/scheduling/resources";
import { slotsOf } from "../../src/scheduling/availability";
import { DEFAULT_TIMEZONE } from "../../src/scheduling/constants";
import { loadScheduleRows, scheduleOf } from "../../src/scheduling/schedules";
import { isoInZone } from "../../src/scheduling/timezone";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** Text that JSON must escape, and text it must not. */
const AWKWARD = ['Quote " and \\ backslash', "line\nbreak\ttab\r\u0001\u001f\u007f", "Ünïcödé 日本 🙂 \u2028", "</script>", ""];
const CUSTOM = [{}, { "10": 1, b: [1.5, 2, { z: null }], a: "x\u0001", "2": true }, { nested: { deep: ["é", 1e21, -0.5] } }];

/**
 * Resources in four zones (two with the very same rules, one whose rules overlap), rules, breaks,
 * holidays, overrides, time off and appointments of every kind, with payments and expenses, written
 * straight to the tables so their values can be awkward.
 */
async function seed(account: TestAccount): Promise<number[]> {
  const random = prng(7);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)]!;
  const insert = async (table: string, rows: Record<string, unknown>[]) => (rows.length ? await h.knex(table).insert(rows).returning("*") : []);
  const zones = ["Asia/Almaty", "Asia/Almaty", "Asia/Almaty", "Europe/Berlin", "America/New_York", "Asia/Kolkata"];
  const resources = await insert(
    "scheduling_resources",
    zones.map((timezone, i) => ({
      account_id: account.id,
      name: `${pick(AWKWARD)} ${i}`,
      specialty: i % 2 ? null : pick(AWKWARD),
      timezone,
      slot_duration_min: [30, 30, 45, 60, 20, 30][i],
      custom_attributes: JSON.stringify(CUSTOM[i % CUSTOM.length]),
    })),
  );
  const ids = resources.map((r) => r.id as number);
  const weekly = (resourceId: number, i: number, title: boolean) =>
    [1, 2, 3, 4, 5, 6].map((weekday) => ({
      account_id: account.id,
      resource_id: resourceId,
      weekday,
      start_minute: title ? 780 : 540 - (i === 2 ? 60 : 0),
      end_minute: title ? 840 : 1080,
      active: !(i === 4 && weekday === 3),
      ...(title ? { title: pick(AWKWARD) } : {}),
    }));
  await insert("scheduling_work_rules", [
    ...ids.flatMap((id, i) => weekly(id, i, false)),
    // Overlapping rules: the same window must be offered once.
    { account_id: account.id, resource_id: ids[2], weekday: 2, start_minute: 600, end_minute: 1200, active: true },
    { account_id: account.id, resource_id: ids[3], weekday: 0, start_minute: 0, end_minute: 1440, active: true },
  ]);
  await insert(
    "scheduling_break_rules",
    ids.filter((_, i) => i !== 5).flatMap((id, i) => weekly(id, i, true)),
  );
  await insert("scheduling_holidays", [
    {
      account_id: account.id,
      date: "2037-03-08",
      title: "Yearly",
      recurring_yearly: true,
      working_day_override: false,
      custom_attributes: JSON.stringify(CUSTOM[1]),
    },
    { account_id: account.id, date: "2037-03-16", title: pick(AWKWARD), recurring_yearly: false, working_day_override: false },
    { account_id: account.id, date: "2025-03-18", title: "Worked", recurring_yearly: true, working_day_override: true },
  ]);
  await insert("scheduling_workday_overrides", [
    {
      account_id: account.id,
      resource_id: ids[0],
      date: "2037-03-16",
      start_minute: 600,
      end_minute: 700,
      break_start_minute: 630,
      break_end_minute: 645,
      break_title: "Tea",
    },
    { account_id: account.id, resource_id: ids[3], date: "2037-03-29", start_minute: 60, end_minute: 300, custom_attributes: JSON.stringify(CUSTOM[2]) },
  ]);
  await insert("scheduling_time_offs", [
    { account_id: account.id, kind: "vacation", starts_at: "2037-03-21T00:00:00+05:00", ends_at: "2037-03-24T00:00:00+05:00", notes: pick(AWKWARD) },
    {
      account_id: account.id,
      resource_id: ids[4],
      kind: "sick_leave",
      starts_at: "2037-03-10T13:17:00Z",
      ends_at: "2037-03-11T02:00:00.123456Z",
      title: pick(AWKWARD),
    },
  ]);

  const inbox = await createInbox(h, account);
  const { contact, sourceId } = await createContact(h, account, { inbox_id: inbox.id });
  const conversation = await expectOk(
    accountApi(h, account).post("/conversations", { source_id: sourceId, inbox_id: inbox.id, contact_id: contact.id }),
    "conversation",
  );
  const appointments: Record<string, unknown>[] = [];
  for (let day = 1; day <= 31; day++) {
    for (const [i, resourceId] of ids.entries()) {
      // The first two Almaty resources share their bookings as they share their rules.
      const slots = i < 2 ? [9 * 60 + 30, 14 * 60 + 15] : [int(0, 23 * 60), int(0, 23 * 60)];
      for (const [k, minute] of slots.entries()) {
        const startsAt = Date.parse(`2037-03-${String(day).padStart(2, "0")}T00:00:00+05:00`) + minute * 60_000 + (k === 0 && day % 7 === 0 ? 123 : 0);
        const status = pick(["scheduled", "confirmed", "completed", "cancelled", "no_show"]);
        appointments.push({
          account_id: account.id,
          resource_id: resourceId,
          contact_id: day % 3 ? null : contact.id,
          conversation_id: day % 4 ? null : conversation.id,
          starts_at: new Date(startsAt),
          ends_at: new Date(startsAt + 45 * 60_000),
          duration_min: 45,
          status,
          client_name: pick(AWKWARD),
          client_phone: day % 2 ? null : "+77010000000",
          client_birth_date: day % 5 ? null : "1987-06-05",
          notes: day % 3 ? null : pick(AWKWARD),
          custom_attributes: JSON.stringify(pick(CUSTOM)),
          hold_expires_at: day % 6 ? null : "2037-03-01T10:00:00.987654Z",
          cancelled_at: status === "cancelled" ? "2037-02-27T08:00:00.5Z" : null,
          cancellation_reason: status === "cancelled" ? pick(AWKWARD) : null,
          service_amount: 10_000,
          external_ref: day % 9 ? null : `ref-${day}-${i}-${k}`,
        });
      }
    }
  }
  // Live bookings of one resource may not overlap: keep the first of any that would.
  const kept: Record<string, unknown>[] = [];
  for (const a of appointments) {
    const clash = (b: Record<string, unknown>) =>
      b.resource_id === a.resource_id &&
      b.status !== "cancelled" &&
      a.status !== "cancelled" &&
      (b.starts_at as Date) < (a.ends_at as Date) &&
      (a.starts_at as Date) < (b.ends_at as Date);
    if (!kept.some(clash)) kept.push(a);
  }
  const rows = await insert("scheduling_appointments", kept);
  const paid = rows.filter((_, i) => i % 3 === 0);
  await insert(
    "scheduling_payments",
    paid.flatMap((a, i) => [
      {
        account_id: account.id,
        appointment_id: a.id,
        amount: 3000,
        payment_method: "cash",
        payment_kind: "payment",
        recorded_by_id: i % 2 ? null : account.admin.id,
      },
      ...(i % 2
        ? [
            {
              account_id: account.id,
              appointment_id: a.id,
              amount: 1000,
              payment_method: "card",
              payment_kind: "prepaid",
              created_at: "2037-02-01T00:00:00.000999Z",
            },
          ]
        : []),
      ...(i % 5 === 0
        ? [{ account_id: account.id, appointment_id: a.id, amount: 500, payment_method: "cash", payment_kind: "refund", reason: pick(AWKWARD) }]
        : []),
    ]),
  );
  await insert(
    "scheduling_expenses",
    paid
      .filter((_, i) => i % 2 === 0)
      .map((a, i) => ({
        account_id: account.id,
        appointment_id: a.id,
        resource_id: a.resource_id,
        amount: 4000,
        status: i % 2 ? "paid" : "unpaid",
        paid_at: i % 2 ? "2037-03-30T12:00:00Z" : null,
      })),
  );
  // Bookings moved away from a resource that was paid: its compensation, clawed back, before the current one.
  const moved = paid.filter((_, i) => i % 2 === 1).slice(0, 6);
  await insert(
    "scheduling_expenses",
    moved.flatMap((a) => {
      const left = ids.find((id) => id !== a.resource_id)!;
      return [
        { account_id: account.id, appointment_id: a.id, resource_id: left, amount: 3000, status: "paid", paid_at: "2026-03-02T12:00:00Z" },
        { account_id: account.id, appointment_id: a.id, resource_id: left, kind: "adjustment", amount: -3000, status: "unpaid" },
        { account_id: account.id, appointment_id: a.id, resource_id: a.resource_id, amount: 4000, status: "unpaid" },
      ];
    }),
  );
  // Values whose text only JavaScript writes as JavaScript does: BC, five-digit and pre-1000 years.
  await h
    .knex("scheduling_appointments")
    .where("id", rows[1]!.id)
    .update({ hold_expires_at: h.knex.raw("'0001-06-01 00:00:00+00 BC'::timestamptz") });
  await h.knex("scheduling_appointments").where("id", rows[2]!.id).update({ client_birth_date: "0999-01-02" });
  await h
    .knex("scheduling_payments")
    .where("appointment_id", paid[1]!.id)
    .update({ created_at: h.knex.raw("'10001-01-01 00:00:00+00'::timestamptz") });
  await h
    .knex("scheduling_expenses")
    .where("appointment_id", paid[2]!.id)
    .update({ paid_at: h.knex.raw("'0001-06-01 00:00:00+00 BC'::timestamptz") });
  return ids;
}

/** The calendar body computed the straightforward way: models, the presenters, and each active resource's slotsOf (the range lies ahead). */
async function reference(
  accountId: number,
  query: { view: string; from: string; to: string; resourceIds?: number[]; includeSlots: boolean; durationMin?: number },
) {
  const range = { start: Date.parse(query.from), end: Date.parse(query.to) };
  const resourceQuery = Resource.ofAccount(accountId).orderBy("id");
  if (query.resourceIds) resourceQuery.whereIn("id", query.resourceIds);
  const resources = await resourceQuery;
  const rows = await loadScheduleRows(
    accountId,
    resources.map((r) => r.id),
    range,
  );
  const ids = rows.appointments.map((a) => a.id);
  const payments = await Payment.ofAppointments(ids);
  const expenses = await Expense.ofAppointments(ids);
  const slots = query.includeSlots
    ? resources
        .filter((resource) => resource.active)
        .flatMap((resource) => {
          const duration = query.durationMin ?? resource.slot_duration_min;
          return slotsOf(scheduleOf(resource, rows), range, duration).map((slot) => ({
            resource_id: resource.id,
            starts_at: isoInZone(slot.start, resource.timezone),
            ends_at: isoInZone(slot.end, resource.timezone),
            status: "available",
          }));
        })
    : [];
  const payload = {
    view: query.view,
    range: { from: isoInZone(range.start, DEFAULT_TIMEZONE), to: isoInZone(range.end, DEFAULT_TIMEZONE) },
    resources: resources.map(presentResource),
    work_rules: rows.workRules.map(presentWorkRule),
    break_rules: rows.breakRules.map(presentBreakRule),
    holidays: rows.holidays.map(presentHoliday),
    workday_overrides: rows.overrides.map(presentWorkdayOverride),
    time_offs: rows.timeOffs.map(presentTimeOff),
    appointments: rows.appointments.map((a) =>
      presentAppointment(
        a,
        payments.filter((p) => p.appointment_id === a.id),
        currentExpense(a, expenses),
      ),
    ),
    payments: payments.map(presentPayment),
    expenses: expenses.map(presentExpense),
    slots,
  };
  return JSON.stringify({ payload });
}

test("the calendar body is byte for byte the straightforward computation's, slots, appointments, payments and all", async (t) => {
  const account = await createAccount(h, "Calendar bytes");
  const ids = await seed(account);
  const cases = [
    { view: "month", from: "2037-03-01T00:00:00+05:00", to: "2037-04-01T00:00:00+05:00", includeSlots: true },
    { view: "week", from: "2037-03-23T07:13:00Z", to: "2037-03-30T09:01:00Z", includeSlots: true, durationMin: 25 },
    { view: "day", from: "2037-03-29T00:00:00+02:00", to: "2037-03-30T00:00:00+02:00", includeSlots: true, resourceIds: [ids[3]!, ids[1]!] },
    { view: "list", from: "2037-03-01T00:00:00+05:00", to: "2037-03-15T00:00:00+05:00", includeSlots: false },
    { view: "month", from: "2037-05-01T00:00:00+05:00", to: "2037-06-01T00:00:00+05:00", includeSlots: true, resourceIds: [ids[5]!] },
  ];
  let slots = 0;
  let appointments = 0;
  let payments = 0;
  for (const query of cases) {
    const params = new URLSearchParams({ view: query.view, from: query.from, to: query.to, include_slots: String(query.includeSlots) });
    if (query.durationMin) params.set("duration_min", String(query.durationMin));
    if (query.resourceIds) params.set("resource_ids", query.resourceIds.join(","));
    const response = await fetch(`${h.baseUrl}/api/v1/accounts/${account.id}/scheduling/calendar?${params}`, {
      headers: { api_access_token: account.admin.token },
    });
    t.is(response.status, 200);
    const body = await response.text();
    const expected = await reference(account.id, query);
    if (body !== expected) {
      let at = 0;
      while (body[at] === expected[at]) at++;
      return t.fail(`${params}: differs at ${at}: ${JSON.stringify(body.slice(at - 80, at + 80))} vs ${JSON.stringify(expected.slice(at - 80, at + 80))}`);
    }
    const payload = JSON.parse(body).payload;
    slots += payload.slots.length;
    appointments += payload.appointments.length;
    payments += payload.payments.length + payload.expenses.length;
  }
  t.true(slots > 5_000 && appointments > 200 && payments > 50, `${slots} slots, ${appointments} appointments, ${payments} payments and expenses compared`);
});
