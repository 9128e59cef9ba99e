/**
 * The account's money journals: payments and the expenses owed to resources, and paying those out,
 * one at a time or all matching ones in batches (pay_all runs as a workflow, see payouts below).
 */
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { Expense, Payment } from "../models/scheduling/Appointment";
import type { AppDeps } from "../deps";
import { startOnce } from "../temporal/client";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { expenseNotFound } from "./errors";
import type { Page } from "./appointments";
import { expensePayoutWorkflowId } from "../temporal/contracts";

export interface PaymentFilters {
  payment_kinds?: string[];
  payment_methods?: string[];
  resource_ids?: number[];
  /** On created_at. */
  from?: Date;
  to?: Date;
}

export async function listPayments(db: Knex, accountId: number, filters: PaymentFilters, page: Page): Promise<{ payments: Payment[]; count: number }> {
  const matching = Payment.query(db).where("scheduling_payments.account_id", accountId);
  if (filters.payment_kinds) matching.whereIn("payment_kind", filters.payment_kinds);
  if (filters.payment_methods) matching.whereIn("payment_method", filters.payment_methods);
  if (filters.from) matching.where("scheduling_payments.created_at", ">=", filters.from);
  if (filters.to) matching.where("scheduling_payments.created_at", "<", filters.to);
  if (filters.resource_ids) {
    matching.whereIn("appointment_id", db("scheduling_appointments").select("id").where("account_id", accountId).whereIn("resource_id", filters.resource_ids));
  }
  const [count, payments] = await Promise.all([
    matching.clone().resultSize(),
    matching
      .orderBy([{ column: "scheduling_payments.created_at" }, { column: "scheduling_payments.id" }])
      .offset((page.page - 1) * page.per_page)
      .limit(page.per_page),
  ]);
  return { payments, count };
}

export interface ExpenseFilters {
  status?: string[];
  resource_ids?: number[];
  /** On the appointment's starts_at. */
  from?: Date;
  to?: Date;
}

function matchingExpenses(db: Knex, accountId: number, filters: ExpenseFilters) {
  const matching = Expense.query(db).where("scheduling_expenses.account_id", accountId);
  if (filters.status) matching.whereIn("status", filters.status);
  if (filters.resource_ids) matching.whereIn("resource_id", filters.resource_ids);
  if (filters.from || filters.to) {
    const starting = db("scheduling_appointments").select("id").where("account_id", accountId);
    if (filters.from) starting.where("starts_at", ">=", filters.from);
    if (filters.to) starting.where("starts_at", "<", filters.to);
    matching.whereIn("appointment_id", starting);
  }
  return matching;
}

export async function listExpenses(db: Knex, accountId: number, filters: ExpenseFilters, page: Page): Promise<{ expenses: Expense[]; count: number }> {
  const matching = matchingExpenses(db, accountId, filters);
  const [count, expenses] = await Promise.all([
    matching.clone().resultSize(),
    matching
      .orderBy("id")
      .offset((page.page - 1) * page.per_page)
      .limit(page.per_page),
  ]);
  return { expenses, count };
}

/** Pays one expense; paying it again keeps who paid it and when. One statement, so a refund racing it either sees it paid or removes it first. */
export async function payExpense(db: Knex, accountId: number, id: number, userId: number): Promise<Expense> {
  const [expense] = await Expense.query(db)
    .patch({
      status: "paid",
      paid_at: db.raw("COALESCE(paid_at, now())") as unknown as Date,
      paid_by_id: db.raw("CASE WHEN status = 'paid' THEN paid_by_id ELSE ? END", [userId]) as unknown as number,
    })
    .where({ id, account_id: accountId })
    .returning("*");
  if (!expense) throw expenseNotFound();
  return expense;
}

// ---- payouts: pay_all as a workflow in batches

export interface PayoutInput {
  accountId: number;
  payoutId: string;
  userId: number;
  /** As JSON carries them: from and to in ISO 8601. */
  filters: { resource_ids?: number[]; from?: string; to?: string };
  /** ISO 8601: when the payout was asked for, the paid_at of every expense it pays. */
  paidAt: string;
  /** Only expenses that existed when the payout was asked for. */
  maxExpenseId: number;
  batchSize: number;
}

export interface PayoutBatch {
  /** The last expense the batch looked at; null when nothing was left. */
  lastId: number | null;
  /** Expenses this payout paid in the batch, counting a retry's as the first attempt's. */
  paid: number;
}

export interface Payout {
  payoutId: string;
  workflowId: string;
  count: number;
}

/** Counts what a pay_all will pay and hands the payout to its workflow, which pays in batches. */
export async function startPayout(deps: AppDeps, accountId: number, userId: number, filters: Omit<ExpenseFilters, "status">): Promise<Payout> {
  const unpaid = matchingExpenses(deps.knex, accountId, { ...filters, status: ["unpaid"] });
  const [count, max] = await Promise.all([unpaid.clone().resultSize(), unpaid.clone().max("scheduling_expenses.id as max").first()]);
  const payoutId = randomUUID();
  const workflowId = expensePayoutWorkflowId(deps.temporal.installationId, accountId, payoutId);
  const input: PayoutInput = {
    accountId,
    payoutId,
    userId,
    filters: { resource_ids: filters.resource_ids, from: filters.from?.toISOString(), to: filters.to?.toISOString() },
    paidAt: new Date().toISOString(),
    maxExpenseId: Number((max as { max?: number } | undefined)?.max ?? 0),
    batchSize: deps.settings.payoutBatchSize,
  };
  await startOnce(deps, "expensePayoutWorkflow", {
    workflowId,
    work: `payout ${payoutId}`,
    args: [input],
    typedSearchAttributes: [{ key: AccountIdAttribute, value: accountId }],
    staticSummary: `Pay out ${count} unpaid expense(s) of account ${accountId}`,
  });
  return { payoutId, workflowId, count };
}

/**
 * Pays the next batch after `afterId`: the payout's own candidates are the unpaid ones and those it
 * paid already, so a retried batch sees the same rows, pays none twice (status must still be
 * unpaid) and reports the same count.
 */
export async function payExpenseBatch(db: Knex, input: PayoutInput, afterId: number): Promise<PayoutBatch> {
  const { resource_ids, from, to } = input.filters;
  const filters: ExpenseFilters = { resource_ids, from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined };
  return db.transaction(async (trx) => {
    const candidates = await matchingExpenses(trx, input.accountId, filters)
      .where((q) => q.where("status", "unpaid").orWhere("payout_id", input.payoutId))
      .where("scheduling_expenses.id", ">", afterId)
      .where("scheduling_expenses.id", "<=", input.maxExpenseId)
      .orderBy("scheduling_expenses.id")
      .limit(input.batchSize)
      .select("scheduling_expenses.id");
    const ids = candidates.map((expense) => expense.id);
    if (!ids.length) return { lastId: null, paid: 0 };
    await Expense.query(trx)
      .patch({ status: "paid", paid_at: new Date(input.paidAt), paid_by_id: input.userId, payout_id: input.payoutId })
      .whereIn("id", ids)
      .where("status", "unpaid");
    const paid = await Expense.query(trx).whereIn("id", ids).where("payout_id", input.payoutId).resultSize();
    return { lastId: ids.at(-1)!, paid };
  });
}
