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
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

/**
 * Resources of which three share a timetable and their bookings (so they share their slots), one
 * with its own slot length, one in Europe/Berlin across its spring-forward day and one inactive;
 * bookings with payments, and some moved after their first resource's compensation was paid.
 */
async function seed(account: TestAccount): Promise<number[]> {
  const insert = async (table: string, rows: Record<string, unknown>[]) => await h.knex(table).insert(rows).returning("*");
  const zones = ["Asia/Almaty", "Asia/Almaty", "Asia/Almaty", "Asia/Almaty", "Europe/Berlin", "Asia/Almaty"];
  const resources = await insert(
    "scheduling_resources",
    zones.map((timezone, i) => ({ account_id: account.id, name: `Resource ${i} ü 日本 🙂`, timezone, slot_duration_min: i === 3 ? 45 : 30, active: i !== 5 })),
  );
  const ids = resources.map((r) => r.id as number);
  await insert(
    "scheduling_work_rules",
    ids.flatMap((resourceId) =>
      [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ account_id: account.id, resource_id: resourceId, weekday, start_minute: 60, end_minute: 1080 })),
    ),
  );
  await insert("scheduling_holidays", [{ account_id: account.id, date: "2037-03-08", title: "Yearly", recurring_yearly: true }]);
  const appointments = [];
  for (let day = 1; day <= 31; day++) {
    for (const [i, resourceId] of ids.entries()) {
      for (const hours of [0, 6]) {
        const startsAt = Date.parse(`2037-03-${String(day).padStart(2, "0")}T10:00:00+05:00`) + (hours + (i < 3 ? 0 : i)) * 3_600_000;
        appointments.push({
          account_id: account.id,
          resource_id: resourceId,
          starts_at: new Date(startsAt),
          ends_at: new Date(startsAt + 45 * 60_000),
          duration_min: 45,
          status: day % 5 ? "scheduled" : "cancelled",
          cancelled_at: day % 5 ? null : new Date(startsAt - 86_400_123),
          cancellation_reason: day % 5 ? null : 'Said "no"\tthen left',
          hold_expires_at: day % 7 ? null : new Date(startsAt - 3_600_000 + 456),
          client_name: `Client ${day} «Ä» \\ 🙂`,
          client_phone: day % 2 ? "+77011234567" : null,
          notes: day % 6 ? null : 'Line 1\nLine "2" \u0007 </script>',
          external_ref: `ext-${day}-${i}-${hours}`,
          compensation_type_snapshot: day % 2 ? "percent" : null,
          compensation_value_snapshot: day % 2 ? 40 : null,
          client_birth_date: day % 4 ? null : day === 4 ? "0987-06-05" : "1987-06-05",
          custom_attributes: day % 3 ? {} : { "10": 1, b: [1.5, { z: null }], a: "x\u0001" },
          service_amount: 10_000,
        });
      }
    }
  }
  const rows = await insert("scheduling_appointments", appointments);
  const paid = rows.filter((_, i) => i % 3 === 0);
  await insert(
    "scheduling_payments",
    paid.flatMap((a, i) => [
      { account_id: account.id, appointment_id: a.id, amount: 3000, payment_method: "cash", payment_kind: "payment" },
      ...(i % 2 ? [{ account_id: account.id, appointment_id: a.id, amount: 1000, payment_method: "card", payment_kind: "prepaid" }] : []),
    ]),
  );
  // Moved bookings: the compensation of the resource they left, clawed back, before the current one.
  await insert(
    "scheduling_expenses",
    paid.flatMap((a, i) => {
      const current = { account_id: account.id, appointment_id: a.id, resource_id: a.resource_id, amount: 4000, status: "unpaid" };
      if (i % 2) return [current];
      const left = ids.find((id) => id !== a.resource_id)!;
      return [
        { account_id: account.id, appointment_id: a.id, resource_id: left, amount: 3000, status: "paid", paid_at: "2037-03-02T12:00:00Z" },
        { account_id: account.id, appointment_id: a.id, resource_id: left, kind: "adjustment", amount: -3000, status: "unpaid" },
        current,
      ];
    }),
  );
  return ids;
}

/**
 * The calendar body computed one resource and one appointment at a time: each active resource's
 * slotsOf, each appointment's payments and current expense picked from the lists, against the
 * renderer's shared slot texts and grouping.
 */
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

test("the calendar body is byte for byte the one-at-a-time computation's: every resource its own slots, every appointment its own money", async (t) => {
  const account = await createAccount(h, "Calendar body");
  const ids = await seed(account);
  const cases = [
    { view: "month", from: "2037-03-01T00:00:00+05:00", to: "2037-04-01T00:00:00+05:00", includeSlots: true },
    { view: "week", from: "2037-03-23T07:13:00Z", to: "2037-03-30T09:01:00Z", includeSlots: true, durationMin: 25 },
    { view: "day", from: "2037-03-29T00:00:00+02:00", to: "2037-03-30T00:00:00+02:00", includeSlots: true, resourceIds: [ids[4]!, ids[1]!] },
    { view: "list", from: "2037-03-01T00:00:00+05:00", to: "2037-03-15T00:00:00+05:00", includeSlots: false },
  ];
  let slots = 0;
  let expenses = 0;
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
    expenses += payload.appointments.filter((a: { expense: unknown }) => a.expense).length;
  }
  t.true(slots > 5_000 && expenses > 20, `${slots} slots, ${expenses} appointments' own expenses compared`);
});
