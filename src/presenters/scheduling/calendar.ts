import type { Calendar, ResourceSlots } from "../../scheduling/calendar";
import { DEFAULT_TIMEZONE } from "../../scheduling/constants";
import { isoFormatter, isoInZone } from "../../scheduling/timezone";
import { presentAppointment, presentExpense, presentPayment } from "./appointments";
import { presentHoliday, presentTimeOff, presentWorkdayOverride } from "./exceptions";
import { presentBreakRule, presentResource, presentWorkRule } from "./resources";

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** The calendar payload; slot times carry their resource's UTC offset, the range the default zone's. */
export function presentCalendar(calendar: Calendar) {
  const paymentsOf = groupBy(calendar.payments, (p) => p.appointment_id);
  const expenseOf = new Map(calendar.expenses.map((e) => [e.appointment_id, e]));
  return {
    view: calendar.query.view,
    range: { from: isoInZone(calendar.query.range.start, DEFAULT_TIMEZONE), to: isoInZone(calendar.query.range.end, DEFAULT_TIMEZONE) },
    resources: calendar.resources.map(presentResource),
    work_rules: calendar.workRules.map(presentWorkRule),
    break_rules: calendar.breakRules.map(presentBreakRule),
    holidays: calendar.holidays.map(presentHoliday),
    workday_overrides: calendar.overrides.map(presentWorkdayOverride),
    time_offs: calendar.timeOffs.map(presentTimeOff),
    appointments: calendar.appointments.map((a) => presentAppointment(a, paymentsOf.get(a.id) ?? [], expenseOf.get(a.id))),
    payments: calendar.payments.map(presentPayment),
    expenses: calendar.expenses.map(presentExpense),
    slots: presentSlots(calendar.slots),
  };
}

interface PresentedSlot {
  resource_id: number;
  starts_at: string;
  ends_at: string;
  status: "available";
}

/** Month views carry tens of thousands of slots, hence one formatter per resource and one array filled in place. */
function presentSlots(groups: readonly ResourceSlots[]): PresentedSlot[] {
  const presented: PresentedSlot[] = [];
  for (const { resource, slots } of groups) {
    const iso = isoFormatter(resource.timezone);
    for (const slot of slots) presented.push({ resource_id: resource.id, starts_at: iso(slot.start), ends_at: iso(slot.end), status: "available" });
  }
  return presented;
}
