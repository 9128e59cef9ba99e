import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { requireAdministrator } from "../../../policies";
import { dimensionSummary, labelSummary, summaryQueryFor } from "../../../services/reports/summaryReports";
import { labelSummaryReportResponse, summaryReportQuery, summaryReportResponse } from "./schema";

/** Api::V2::Accounts::SummaryReportsController: one row per agent, inbox, team or label; administrators only. */
export function registerSummaryReportRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/summary_reports";

  for (const dimension of ["agent", "inbox", "team"] as const) {
    router.route(
      {
        authorize: requireAdministrator,
        method: "get",
        path: `${path}/${dimension}`,
        summary: `Conversations, resolutions and average times per ${dimension} in a range`,
        params: accountParams,
        query: summaryReportQuery,
        response: summaryReportResponse,
      },
      async (ctx, { query }) => {
        ctx.body = await dimensionSummary(ctx.deps.knex, dimension, await summaryQueryFor(ctx.deps.knex, ctx.state.account!.id, query));
      },
    );
  }

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/label`,
      summary: "Conversations, resolutions and average times per label in a range",
      params: accountParams,
      query: summaryReportQuery,
      response: labelSummaryReportResponse,
    },
    async (ctx, { query }) => {
      ctx.body = await labelSummary(ctx.deps.knex, await summaryQueryFor(ctx.deps.knex, ctx.state.account!.id, query));
    },
  );
}
