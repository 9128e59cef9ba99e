import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { requireAdministrator } from "../../../policies";
import type { AppContext } from "../../../http/context";
import { conversationsSummaryCsv, conversationTrafficCsv, dimensionCsv } from "../../../services/reports/csvReports";
import { rangeFrom, reportZone } from "../../../services/reports/periods";
import { summaryQueryFor } from "../../../services/reports/summaryReports";
import { summaryReportQuery, trafficQuery } from "./schema";

function csv(ctx: AppContext, name: string, body: string) {
  ctx.type = "text/csv";
  ctx.set("Content-Disposition", `attachment; filename=${name}.csv`);
  ctx.body = body;
}

/** The CSV downloads of Api::V2::Accounts::ReportsController; administrators only. */
export function registerReportExportRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/reports";
  const dimensions = { agents: "agent", inboxes: "inbox", teams: "team", labels: "label" } as const;

  for (const [route, dimension] of Object.entries(dimensions)) {
    router.route(
      {
        authorize: requireAdministrator,
        method: "get",
        path: `${path}/${route}`,
        summary: `CSV: conversations, resolutions and average times (seconds) per ${dimension} in a range`,
        params: accountParams,
        query: summaryReportQuery,
      },
      async (ctx, { query }) => {
        csv(ctx, `${route}_report`, await dimensionCsv(ctx.deps.knex, dimension, await summaryQueryFor(ctx.deps.knex, ctx.state.account!.id, query)));
      },
    );
  }

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/conversations_summary`,
      summary: "CSV: the account's conversation totals and averages in a range",
      params: accountParams,
      query: summaryReportQuery,
    },
    async (ctx, { query }) => {
      csv(
        ctx,
        "conversations_summary_report",
        await conversationsSummaryCsv(ctx.deps.knex, await summaryQueryFor(ctx.deps.knex, ctx.state.account!.id, query)),
      );
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/conversation_traffic`,
      summary: "CSV: conversations created per weekday and hour, in the account's timezone and in UTC",
      params: accountParams,
      query: trafficQuery,
    },
    async (ctx, { query }) => {
      const account = ctx.state.account!;
      const zone = await reportZone(ctx.deps.knex, account, query.timezone_offset);
      csv(ctx, "conversation_traffic_reports", await conversationTrafficCsv(ctx.deps.knex, account.id, rangeFrom(query.since, query.until), zone));
    },
  );
}
