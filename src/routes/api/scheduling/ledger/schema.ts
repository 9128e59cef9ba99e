import { z } from "zod";
import { EXPENSE_STATUSES, PAYMENT_KINDS, PAYMENT_METHODS } from "../../../../scheduling/constants";
import { csvIds, csvOf, instant, one, pagination } from "../common";

export const paymentResponse = z
  .object({
    id: z.number(),
    appointment_id: z.number(),
    recorded_by_id: z.number().nullable(),
    amount: z.number(),
    payment_method: z.string(),
    payment_kind: z.string(),
    /** A refund's reason. */
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("SchedulingPayment");

export const expenseResponse = z
  .object({
    id: z.number(),
    appointment_id: z.number(),
    resource_id: z.number(),
    /** compensation, or adjustment (negative to claw back). */
    kind: z.string(),
    amount: z.number(),
    status: z.string(),
    paid_at: z.string().nullable(),
    paid_by_id: z.number().nullable(),
    payout_id: z.string().nullable(),
  })
  .openapi("SchedulingExpense");
export const paymentsQuery = z
  .object({
    payment_kinds: csvOf(PAYMENT_KINDS).optional(),
    payment_methods: csvOf(PAYMENT_METHODS).optional(),
    resource_ids: csvIds.optional(),
    from: instant().optional(),
    to: instant().optional(),
    ...pagination,
  })
  .openapi("SchedulingPaymentsQuery");

const expenseFilters = {
  resource_ids: csvIds.optional(),
  /** On the appointment's start. */
  from: instant().optional(),
  to: instant().optional(),
};

export const expensesQuery = z.object({ status: csvOf(EXPENSE_STATUSES).optional(), ...expenseFilters, ...pagination }).openapi("SchedulingExpensesQuery");

/** pay_all's filters, in the body or the query string. */
export const payAllFilters = z.object(expenseFilters).openapi("SchedulingExpensesPayAll");

export const payoutResponse = one(
  z.object({
    payout_id: z.string(),
    workflow_id: z.string(),
    /** Unpaid expenses matching the filters when the payout was asked for. */
    count: z.number(),
    status: z.string(),
  }),
).openapi("SchedulingPayout");
