import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { requireAdministrator } from "../../../policies";
import { businessCalendar } from "../../../services/reports/businessHours";
import { rangeFrom } from "../../../services/reports/periods";
import { dimensionSummary, labelSummary, type SummaryQuery } from "../../../services/reports/summaryReports";
import type { AppContext } from "../../../http/context";
import { labelSummaryReportResponse, summaryReportQuery, summaryReportResponse } from "./schema";

async function summaryQueryOf(ctx: AppContext, query: { since?: Date; until?: Date; business_hours?: boolean }): Promise<SummaryQuery> {
  const accountId = ctx.state.account!.id;
  return {
    accountId,
    range: rangeFrom(query.since, query.until),
    businessCalendar: query.business_hours ? await businessCalendar(ctx.deps.knex, accountId) : null,
  };
}

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
        ctx.body = await dimensionSummary(ctx.deps.knex, dimension, await summaryQueryOf(ctx, query));
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
      ctx.body = await labelSummary(ctx.deps.knex, await summaryQueryOf(ctx, query));
    },
  );
}
