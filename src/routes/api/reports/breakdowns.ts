import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { requireAdministrator } from "../../../policies";
import { ApiError } from "../../../errors";
import { channelSummary, firstResponseDistribution, inboxLabelMatrix, outgoingMessagesCount } from "../../../services/reports/breakdowns";
import { groupedConversationMetrics, type LiveFilter, liveConversationMetrics } from "../../../services/reports/live";
import { rangeFrom } from "../../../services/reports/periods";
import {
  channelSummaryResponse,
  distributionResponse,
  groupedLiveQuery,
  groupedLiveResponse,
  liveMetricsResponse,
  liveQuery,
  matrixQuery,
  matrixResponse,
  outgoingQuery,
  outgoingResponse,
  rangeQuery,
} from "./schema";

type Ids = number[] | undefined;
const both = (plain: Ids, bracketed: Ids) => [...(plain ?? []), ...(bracketed ?? [])];

function liveFilter(query: {
  since?: Date;
  until?: Date;
  team_ids?: Ids;
  "team_ids[]"?: Ids;
  user_ids?: Ids;
  "user_ids[]"?: Ids;
  inbox_ids?: Ids;
  "inbox_ids[]"?: Ids;
}): LiveFilter {
  return {
    teamIds: both(query.team_ids, query["team_ids[]"]),
    userIds: both(query.user_ids, query["user_ids[]"]),
    inboxIds: both(query.inbox_ids, query["inbox_ids[]"]),
    range: rangeFrom(query.since, query.until),
  };
}

/** The breakdowns beside the v2 reports, and live_reports; administrators only (ReportPolicy#view?). */
export function registerReportBreakdownRoutes(router: ApiRouter) {
  const reports = "/accounts/:account_id/reports";
  const common = { authorize: requireAdministrator, method: "get" as const, params: accountParams };

  router.route(
    {
      ...common,
      path: "/accounts/:account_id/summary_reports/channel",
      summary: "Conversations per channel type by status in a range",
      query: rangeQuery,
      response: channelSummaryResponse,
    },
    async (ctx, { query }) => {
      ctx.body = await channelSummary(ctx.deps.knex, ctx.state.account!.id, rangeFrom(query.since, query.until));
    },
  );

  router.route(
    {
      ...common,
      path: `${reports}/first_response_time_distribution`,
      summary: "First responses per channel type in time buckets (0-1h, 1-4h, 4-8h, 8-24h, 24h+)",
      query: rangeQuery,
      response: distributionResponse,
    },
    async (ctx, { query }) => {
      ctx.body = await firstResponseDistribution(ctx.deps.knex, ctx.state.account!.id, rangeFrom(query.since, query.until));
    },
  );

  router.route(
    {
      ...common,
      path: `${reports}/outgoing_messages_count`,
      summary: "Outgoing messages per agent, team, inbox or label (group_by) in a range",
      query: outgoingQuery,
      response: outgoingResponse,
    },
    async (ctx, { query }) => {
      ctx.body = await outgoingMessagesCount(ctx.deps.knex, ctx.state.account!.id, query.group_by, rangeFrom(query.since, query.until));
    },
  );

  router.route(
    { ...common, path: `${reports}/inbox_label_matrix`, summary: "Conversations per inbox and label in a range", query: matrixQuery, response: matrixResponse },
    async (ctx, { query }) => {
      ctx.body = await inboxLabelMatrix(ctx.deps.knex, ctx.state.account!.id, rangeFrom(query.since, query.until), {
        inboxIds: both(query.inbox_ids, query["inbox_ids[]"]),
        labelIds: both(query.label_ids, query["label_ids[]"]),
      });
    },
  );

  const live = "/accounts/:account_id/live_reports";
  router.route(
    {
      ...common,
      path: `${live}/conversation_metrics`,
      summary: "Open, unattended, unassigned, pending and resolved conversations now (team_ids, user_ids, inbox_ids narrow them)",
      query: liveQuery,
      response: liveMetricsResponse,
    },
    async (ctx, { query }) => {
      ctx.body = await liveConversationMetrics(ctx.deps.knex, ctx.state.account!.id, liveFilter(query));
    },
  );

  router.route(
    {
      ...common,
      path: `${live}/grouped_conversation_metrics`,
      summary: "Open conversations now per agent (group_by=assignee_id) or team (group_by=team_id)",
      query: groupedLiveQuery,
      response: groupedLiveResponse,
    },
    async (ctx, { query }) => {
      if (query.group_by !== "assignee_id" && query.group_by !== "team_id") throw new ApiError(422, { error: "invalid group_by" });
      ctx.body = await groupedConversationMetrics(ctx.deps.knex, ctx.state.account!.id, query.group_by, liveFilter(query));
    },
  );
}
