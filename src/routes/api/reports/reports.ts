import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { requireAdministrator } from "../../../policies";
import { botMetrics } from "../../../services/reports/botMetrics";
import { businessCalendar } from "../../../services/reports/businessHours";
import { accountConversationMetrics, agentConversationMetrics } from "../../../services/reports/conversationMetrics";
import { isAverage, summaryWithPrevious, timeseries } from "../../../services/reports/metrics";
import { rangeFrom, reportZone } from "../../../services/reports/periods";
import { resolveScope } from "../../../services/reports/scope";
import type { AppContext } from "../../../http/context";
import {
  botMetricsQuery,
  botMetricsResponse,
  botSummaryResponse,
  conversationMetricsQuery,
  conversationMetricsResponse,
  reportQuery,
  summaryQuery,
  summaryResponse,
  timeseriesResponse,
} from "./schema";

/** The business calendar only when values are to be counted in business hours. */
const calendarFor = (ctx: AppContext, businessHours: boolean | undefined) =>
  businessHours ? businessCalendar(ctx.deps.knex, ctx.state.account!.id) : Promise.resolve(null);

/** Api::V2::Accounts::ReportsController: administrators only (ReportPolicy#view?). */
export function registerReportRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/reports";

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path,
      summary: "A metric per day, week, month, year or hour of a range",
      params: accountParams,
      query: reportQuery,
      response: timeseriesResponse,
    },
    async (ctx, { query }) => {
      const { knex } = ctx.deps;
      const account = ctx.state.account!;
      const scope = await resolveScope(knex, account.id, query.type, query.id);
      const range = rangeFrom(query.since, query.until);
      if (!range) {
        ctx.body = [];
        return;
      }
      const [zone, calendar] = await Promise.all([
        reportZone(knex, account, query.timezone_offset),
        calendarFor(ctx, isAverage(query.metric) && query.business_hours),
      ]);
      ctx.body = await timeseries(knex, query.metric, { accountId: account.id, scope, range, businessCalendar: calendar }, query.group_by, zone);
    },
  );

  for (const kind of ["summary", "bot_summary"] as const) {
    router.route(
      {
        authorize: requireAdministrator,
        method: "get",
        path: `${path}/${kind}`,
        summary:
          kind === "summary"
            ? "Conversation metrics of a range and of the range before it"
            : "Bot resolutions and handoffs of a range and of the range before it",
        params: accountParams,
        query: summaryQuery,
        response: kind === "summary" ? summaryResponse : botSummaryResponse,
      },
      async (ctx, { query }) => {
        const { knex } = ctx.deps;
        const account = ctx.state.account!;
        const scope = await resolveScope(knex, account.id, query.type, query.id);
        const calendar = await calendarFor(ctx, kind === "summary" && query.business_hours);
        ctx.body = await summaryWithPrevious(knex, kind, { accountId: account.id, scope, businessCalendar: calendar }, rangeFrom(query.since, query.until));
      },
    );
  }

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/conversations`,
      summary: "Open, unattended and unassigned conversations now, for the account or per agent (25 a page)",
      params: accountParams,
      query: conversationMetricsQuery,
      response: conversationMetricsResponse,
    },
    async (ctx, { query }) => {
      const { knex } = ctx.deps;
      const accountId = ctx.state.account!.id;
      if (!query.type) {
        // Chatwoot's `head :unprocessable_entity`.
        ctx.status = 422;
        ctx.body = "";
        return;
      }
      ctx.body = query.type === "account" ? await accountConversationMetrics(knex, accountId) : await agentConversationMetrics(knex, accountId, query.page);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/bot_metrics`,
      summary: "Conversations, messages, resolution and handoff rates of agent bots in a range",
      params: accountParams,
      query: botMetricsQuery,
      response: botMetricsResponse,
    },
    async (ctx, { query }) => {
      ctx.body = await botMetrics(ctx.deps.knex, ctx.state.account!.id, rangeFrom(query.since, query.until));
    },
  );
}
