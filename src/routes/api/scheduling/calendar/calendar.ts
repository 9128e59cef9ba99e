import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { calendarBody } from "../../../../presenters/scheduling/calendar";
import { buildCalendar } from "../../../../scheduling/calendar";
import { checks } from "../../../../scheduling/validation";
import { SchedulingSettings } from "../../../../models/scheduling/SchedulingSettings";
import { earliestStart } from "../../../../scheduling/placement";
import { resolveTime } from "../../../../scheduling/wallTime";
import { okJson } from "../respond";
import { calendarQuery, calendarResponse } from "./schema";

/** Longest range one request may span: a quarter, so a slot computation stays bounded. */
const MAX_RANGE_DAYS = 92;
const DAY_MS = 86_400_000;

export function registerCalendarRoutes(router: ApiRouter, base: string) {
  router.route(
    {
      method: "get",
      path: `${base}/calendar`,
      summary: "Calendar of a range: resources, rules, exceptions, appointments with money, and (include_slots) bookable slots",
      params: accountParams,
      query: calendarQuery,
      response: calendarResponse,
    },
    async (ctx, { query }) => {
      const settings = await SchedulingSettings.of(ctx.state.account!.id, ctx.deps.knex);
      const range = { start: resolveTime(query.from, settings.timezone).getTime(), end: resolveTime(query.to, settings.timezone).getTime() };
      const c = checks();
      if (range.end <= range.start) c.add("to", "must be after from");
      else if (range.end - range.start > MAX_RANGE_DAYS * DAY_MS) c.add("to", `must be at most ${MAX_RANGE_DAYS} days after from`);
      c.done();
      const calendar = await buildCalendar(ctx.state.account!.id, {
        view: query.view,
        range,
        resourceIds: query.resource_ids,
        includeSlots: query.include_slots,
        durationMin: query.duration_min,
        serviceId: query.service_id,
        notBefore: earliestStart(Date.now(), settings.minimum_notice_minutes),
        timeZone: settings.timezone,
      });
      okJson(ctx, calendarBody(calendar));
    },
  );
}
