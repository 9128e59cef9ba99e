import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { requireAdministrator } from "../../../../policies";
import { presentExpense, presentPayment } from "../../../../presenters/scheduling/appointments";
import { listExpenses, listPayments, payExpense, startPayout } from "../../../../scheduling/ledger";
import { booker } from "../booker";
import { financeEnabled } from "../middleware";
import { ok, paged } from "../respond";
import { accountItemParams, one, pagedMany } from "../common";
import { expenseResponse, expensesQuery, payAllFilters, paymentResponse, paymentsQuery, payoutResponse } from "./schema";

/** The payment and expense journals and payouts: finance accounts only, administrators only. */
export function registerLedgerRoutes(router: ApiRouter, base: string) {
  const finance = { authorize: requireAdministrator, middleware: [financeEnabled] };

  router.route(
    {
      ...finance,
      method: "get",
      path: `${base}/payments`,
      summary: "The payment journal, filtered by payment_kinds, payment_methods, resource_ids (CSV) and created_at in [from, to)",
      params: accountParams,
      query: paymentsQuery,
      response: pagedMany(paymentResponse),
    },
    async (ctx, { query }) => {
      const { page, per_page, ...filters } = query;
      const { payments, count } = await listPayments(ctx.deps.knex, ctx.state.account!.id, filters, { page, per_page });
      paged(ctx, payments.map(presentPayment), count, { page, per_page });
    },
  );

  router.route(
    {
      ...finance,
      method: "get",
      path: `${base}/expenses`,
      summary: "What resources are owed, filtered by status, resource_ids (CSV) and the appointment's start in [from, to)",
      params: accountParams,
      query: expensesQuery,
      response: pagedMany(expenseResponse),
    },
    async (ctx, { query }) => {
      const { page, per_page, ...filters } = query;
      const { expenses, count } = await listExpenses(ctx.deps.knex, ctx.state.account!.id, filters, { page, per_page });
      paged(ctx, expenses.map(presentExpense), count, { page, per_page });
    },
  );

  router.route(
    {
      ...finance,
      method: "post",
      path: `${base}/expenses/pay_all`,
      summary: "Pay every unpaid expense matching resource_ids, from and to, in batches by a workflow (202: how many, and the workflow to follow)",
      params: accountParams,
      query: payAllFilters,
      body: payAllFilters,
      response: payoutResponse,
      status: 202,
    },
    async (ctx, { query, body }) => {
      const payout = await startPayout(ctx.deps, ctx.state.account!.id, booker(ctx).user!.id, { ...query, ...body });
      ok(ctx, { payout_id: payout.payoutId, workflow_id: payout.workflowId, count: payout.count, status: "running" }, 202);
    },
  );

  router.route(
    {
      ...finance,
      method: "post",
      path: `${base}/expenses/:id/pay`,
      summary: "Pay one expense (paying it again keeps paid_at and paid_by)",
      params: accountItemParams,
      response: one(expenseResponse),
    },
    async (ctx, { params }) => ok(ctx, presentExpense(await payExpense(ctx.deps.knex, ctx.state.account!.id, params.id, booker(ctx).user!.id))),
  );
}
