/**
 * The expense journal of one booking (docs/scheduling-money.md): what each resource that had the
 * booking is owed for it. The resource it is with earns its compensation while the booking is paid;
 * an unpaid compensation follows the booking when it moves; one paid out stays with the resource that
 * was paid, and an adjustment entry claws it back (negative, unpaid: the next payout settles it), so
 * that paying the new resource too never pays one visit twice. Runs under the appointment's row lock.
 */
import type { Knex } from "knex";
import { type Appointment, Expense } from "../models/scheduling/Appointment";
import { earnsCompensation, expenseAmount } from "./money";

const sum = (entries: readonly Expense[]) => entries.reduce((total, e) => total + e.amount, 0);

export async function syncExpenses(trx: Knex.Transaction, appointment: Appointment, fresh: boolean): Promise<void> {
  const entries = fresh ? [] : await Expense.query(trx).where("appointment_id", appointment.id).orderBy("id").forUpdate();
  const here = appointment.resource_id;
  const compensations = entries.filter((e) => e.kind === "compensation");
  const own = compensations.find((e) => e.resource_id === here);
  // Unpaid compensations of resources the booking left: the first follows it here, unless one is here already.
  const left = compensations.filter((e) => e.resource_id !== here && e.status === "unpaid");
  const follower = own ? undefined : left.shift();
  for (const stale of left) await stale.$query(trx).delete();
  if (own?.status !== "paid") await syncCompensation(trx, appointment, own ?? follower);

  // Each resource's entries add up to what it earned: a paid compensation where the booking is, nothing elsewhere.
  const resources = new Set(entries.filter((e) => e.kind === "adjustment" || e.status === "paid").map((e) => e.resource_id));
  for (const resourceId of resources) {
    const paidCompensation = sum(compensations.filter((e) => e.resource_id === resourceId && e.status === "paid"));
    const adjustments = entries.filter((e) => e.kind === "adjustment" && e.resource_id === resourceId);
    const settled = sum(adjustments.filter((e) => e.status === "paid"));
    const due = (resourceId === here ? 0 : -paidCompensation) - settled;
    const open = adjustments.filter((e) => e.status === "unpaid");
    if (open.length === 1 && open[0]!.amount === due) continue;
    for (const entry of open) await entry.$query(trx).delete();
    if (due !== 0) {
      await Expense.query(trx).insert({
        account_id: appointment.account_id,
        appointment_id: appointment.id,
        resource_id: resourceId,
        kind: "adjustment",
        amount: due,
        status: "unpaid",
      });
    }
  }
}

/** The current resource's unpaid compensation: there while the booking earns it, at the booking's compensation snapshot. */
async function syncCompensation(trx: Knex.Transaction, appointment: Appointment, existing: Expense | undefined): Promise<void> {
  if (!earnsCompensation(appointment)) {
    if (existing) await existing.$query(trx).delete();
    return;
  }
  const amount = expenseAmount({ type: appointment.compensation_type_snapshot, value: appointment.compensation_value_snapshot }, appointment.service_amount);
  if (!existing) {
    await Expense.query(trx).insert({
      account_id: appointment.account_id,
      appointment_id: appointment.id,
      resource_id: appointment.resource_id,
      kind: "compensation",
      amount,
      status: "unpaid",
    });
  } else if (existing.amount !== amount || existing.resource_id !== appointment.resource_id) {
    await existing.$query(trx).patch({ amount, resource_id: appointment.resource_id });
  }
}
