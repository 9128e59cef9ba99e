import { z } from "zod";
import { blankAsAbsent, page } from "../../../http/schemas";
import { METRICS } from "../../../services/reports/metrics";
import { GROUP_BYS } from "../../../services/reports/periods";
import { REPORT_TYPES } from "../../../services/reports/scope";
import { OUTGOING_GROUPS } from "../../../services/reports/breakdowns";

/** Unix seconds, as Chatwoot's parse_date_time reads `since` and `until`. */
const unixTime = z
  .string()
  .regex(/^\d{1,11}$/)
  .transform((seconds) => new Date(Number(seconds) * 1000));

/** ActiveModel::Type::Boolean: "", "0", "f", "false", "off" (any case) are false, anything else true. */
const railsBoolean = z.string().transform((value) => !["", "0", "f", "false", "off"].includes(value.toLowerCase()));

/** Hours east of UTC, as the dashboard sends `timezone_offset` (e.g. 5.5, -3). */
const timezoneOffset = z
  .string()
  .regex(/^[-+]?\d{1,2}(\.\d+)?$/)
  .transform(Number)
  .pipe(z.number().min(-12).max(14));

/** A required choice; a missing one reads "can't be blank" as Rails words it. */
const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? "can't be blank" : "is not included in the list") });

const range = { since: blankAsAbsent(unixTime), until: blankAsAbsent(unixTime) };
const subject = { type: choice(REPORT_TYPES), id: z.string().optional() };

export const reportQuery = z.object({
  metric: choice(METRICS),
  ...subject,
  ...range,
  group_by: z.enum(GROUP_BYS).default("day"),
  business_hours: railsBoolean.optional(),
  timezone_offset: timezoneOffset.optional(),
});

export const summaryQuery = z.object({ ...subject, ...range, business_hours: railsBoolean.optional() });

/** A missing type is answered with Chatwoot's bare 422 by the route, so it is optional here. */
export const conversationMetricsQuery = z.object({
  type: z.enum(["account", "agent"]).optional(),
  page: page(),
});

export const botMetricsQuery = z.object(range);

export const summaryReportQuery = z.object({ ...range, business_hours: railsBoolean.optional() });

const countPoint = z.object({ value: z.number(), timestamp: z.number().int() });
const averagePoint = countPoint.extend({ count: z.number().int() });
export const timeseriesResponse = z.array(z.union([countPoint, averagePoint])).openapi("ReportTimeseries");

const summaryFields = {
  conversations_count: z.number().int(),
  outgoing_messages_count: z.number().int(),
  avg_first_response_time: z.number().nullable(),
  avg_resolution_time: z.number().nullable(),
  resolutions_count: z.number().int(),
  reply_time: z.number().nullable(),
  incoming_messages_count: z.number().int().optional(),
};
const summary = z.object(summaryFields);
export const summaryResponse = summary.extend({ previous: summary }).openapi("ReportSummary");

const botSummary = z.object({ bot_resolutions_count: z.number().int(), bot_handoffs_count: z.number().int() });
export const botSummaryResponse = botSummary.extend({ previous: botSummary }).openapi("ReportBotSummary");

const liveMetric = z.object({ open: z.number().int(), unattended: z.number().int(), unassigned: z.number().int().optional() });
export const conversationMetricsResponse = z
  .union([
    liveMetric,
    z.array(z.object({ id: z.number(), name: z.string(), email: z.string(), thumbnail: z.string(), availability: z.string(), metric: liveMetric })),
  ])
  .openapi("ReportConversationMetrics");

export const botMetricsResponse = z
  .object({ conversation_count: z.number().int(), message_count: z.number().int(), resolution_rate: z.number().int(), handoff_rate: z.number().int() })
  .openapi("ReportBotMetrics");

export const summaryReportResponse = z
  .array(
    z.object({
      id: z.number(),
      conversations_count: z.number().int(),
      resolved_conversations_count: z.number().int(),
      avg_resolution_time: z.number().nullable(),
      avg_first_response_time: z.number().nullable(),
      avg_reply_time: z.number().nullable(),
    }),
  )
  .openapi("SummaryReport");

export const labelSummaryReportResponse = z
  .array(
    z.object({
      id: z.number(),
      name: z.string(),
      conversations_count: z.number().int(),
      avg_resolution_time: z.number(),
      avg_first_response_time: z.number(),
      avg_reply_time: z.number(),
      resolved_conversations_count: z.number().int(),
    }),
  )
  .openapi("LabelSummaryReport");

/** `ids[]=1&ids[]=2`, `ids=1,2` or one id; anything not an id is dropped, as Rails' reject(&:blank?) then a where on ids. */
const idArray = z.preprocess((value) => {
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return list.filter((item) => typeof item === "string" && /^\d{1,15}$/.test(item.trim())).map(Number);
}, z.array(z.number()).max(1000));

export const trafficQuery = z.object({ ...range, timezone_offset: timezoneOffset.optional() });
export const rangeQuery = z.object(range);
export const outgoingQuery = z.object({ ...range, group_by: z.enum(OUTGOING_GROUPS).default("agent") });
export const matrixQuery = z.object({
  ...range,
  inbox_ids: idArray.optional(),
  "inbox_ids[]": idArray.optional(),
  label_ids: idArray.optional(),
  "label_ids[]": idArray.optional(),
});
export const liveQuery = z.object({
  ...range,
  team_ids: idArray.optional(),
  "team_ids[]": idArray.optional(),
  user_ids: idArray.optional(),
  "user_ids[]": idArray.optional(),
  inbox_ids: idArray.optional(),
  "inbox_ids[]": idArray.optional(),
});
export const groupedLiveQuery = liveQuery.extend({ group_by: z.string().max(50).optional() });

const count = z.number().int();
export const channelSummaryResponse = z
  .record(z.string(), z.object({ open: count, resolved: count, pending: count, snoozed: count, total: count }))
  .openapi("ReportChannelSummary");
export const distributionResponse = z.record(z.string(), z.record(z.string(), count)).openapi("ReportFirstResponseDistribution");
export const outgoingResponse = z.array(z.object({ id: z.number(), name: z.string(), outgoing_messages_count: count })).openapi("ReportOutgoingMessages");
export const matrixResponse = z
  .object({
    inboxes: z.array(z.object({ id: z.number(), name: z.string() })),
    labels: z.array(z.object({ id: z.number(), title: z.string() })),
    matrix: z.array(z.array(count)),
  })
  .openapi("ReportInboxLabelMatrix");
export const liveMetricsResponse = z
  .object({ open: count, unattended: count, unassigned: count, pending: count, resolved: count })
  .openapi("LiveConversationMetrics");
export const groupedLiveResponse = z
  .array(
    z.object({ open: count, unattended: count, unassigned: count, assignee_id: z.number().nullable().optional(), team_id: z.number().nullable().optional() }),
  )
  .openapi("LiveGroupedConversationMetrics");
