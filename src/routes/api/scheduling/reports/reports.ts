import { DateTime } from "luxon";
import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { SchedulingSettings } from "../../../../models/scheduling/SchedulingSettings";
import { Service } from "../../../../models/scheduling/Service";
import { requireAdministrator } from "../../../../policies";
import { notFound } from "../../../../scheduling/errors";
import { meetingsReport } from "../../../../scheduling/meetingsReport";
import { isoInZone } from "../../../../scheduling/timezone";
import { checks } from "../../../../scheduling/validation";
import { resolveTime } from "../../../../scheduling/wallTime";
import { anyUnknownResource } from "../resourceChecks";
import { ok } from "../respond";
import { meetingsQuery, meetingsResponse } from "./schema";

/** Longest range one report may span: a year, leap day included. */
const MAX_RANGE_DAYS = 366;

/** Scheduling reports: what was booked in a range, and its money. Administrators only, as Chatwoot's reports. */
export function registerReportRoutes(router: ApiRouter, base: string) {
  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${base}/reports/meetings`,
      summary: "Bookings that start in a range, by resource, service or day: counts by status, booked minutes and money",
      params: accountParams,
      query: meetingsQuery,
      response: meetingsResponse,
    },
    async (ctx, { query }) => {
      const accountId = ctx.state.account!.id;
      const { timezone } = await SchedulingSettings.of(accountId, ctx.deps.knex);
      const start = resolveTime(query.from, timezone);
      const end = resolveTime(query.to, timezone);
      const c = checks();
      if (end <= start) c.add("to", "must be after from");
      // Calendar days on the account's clock: a year across a change of its offset still fits.
      else if (end.getTime() > DateTime.fromJSDate(start, { zone: timezone }).plus({ days: MAX_RANGE_DAYS }).toMillis())
        c.add("to", `must be at most ${MAX_RANGE_DAYS} days after from`);
      c.done();
      if (query.resource_ids && (await anyUnknownResource(ctx, query.resource_ids))) throw notFound("Resource");
      const serviceIds = [...new Set(query.service_ids ?? [])];
      if (serviceIds.length && (await Service.query(ctx.deps.knex).where("account_id", accountId).whereIn("id", serviceIds).resultSize()) !== serviceIds.length)
        throw notFound("Service");
      const report = await meetingsReport(ctx.deps.knex, {
        accountId,
        start,
        end,
        timeZone: timezone,
        resourceIds: query.resource_ids,
        serviceIds: query.service_ids,
        groupBy: query.group_by,
      });
      ok(ctx, { from: isoInZone(start.getTime(), timezone), to: isoInZone(end.getTime(), timezone), timezone, group_by: query.group_by ?? null, ...report });
    },
  );
}
