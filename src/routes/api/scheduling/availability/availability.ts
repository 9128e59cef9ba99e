import type { ApiRouter } from "../../../../http/router";
import { openToBots } from "../botAccess";
import { accountParams } from "../../../../http/schemas";
import { SchedulingSettings } from "../../../../models/scheduling/SchedulingSettings";
import { freeSlots } from "../../../../scheduling/freeSlots";
import { earliestStart } from "../../../../scheduling/placement";
import { isoInZone } from "../../../../scheduling/timezone";
import { checks } from "../../../../scheduling/validation";
import { resolveTime } from "../../../../scheduling/wallTime";
import { ok } from "../respond";
import { availabilityQuery, availabilityResponse } from "./schema";

/** Longest range one search may span, so the slot computation stays bounded. */
const MAX_RANGE_DAYS = 31;
const DEFAULT_RANGE_DAYS = 7;
const DAY_MS = 86_400_000;

export function registerAvailabilityRoutes(router: ApiRouter, base: string) {
  router.route(
    {
      method: "get",
      path: `${base}/availability`,
      summary: "The earliest free slots for a service (or a duration) across resources, by the booking rules",
      params: accountParams,
      query: availabilityQuery,
      response: availabilityResponse,
      middleware: [openToBots],
    },
    async (ctx, { query }) => {
      const accountId = ctx.state.account!.id;
      const settings = await SchedulingSettings.of(accountId, ctx.deps.knex);
      const now = Date.now();
      const start = query.from ? resolveTime(query.from, settings.timezone).getTime() : now;
      const end = query.to ? resolveTime(query.to, settings.timezone).getTime() : start + DEFAULT_RANGE_DAYS * DAY_MS;
      const c = checks();
      if (query.service_id === undefined && query.duration_min === undefined) c.add("service_id", "can't be blank unless duration_min is given");
      if (end <= start) c.add("to", "must be after from");
      else if (end - start > MAX_RANGE_DAYS * DAY_MS) c.add("to", `must be at most ${MAX_RANGE_DAYS} days after from`);
      c.done();
      const slots = await freeSlots(accountId, {
        range: { start, end },
        serviceId: query.service_id,
        durationMin: query.duration_min,
        resourceIds: query.resource_ids,
        limit: query.limit,
        notBefore: earliestStart(now, settings.minimum_notice_minutes),
      });
      ok(
        ctx,
        slots.map(({ resource, start, end, price }) => ({
          resource_id: resource.id,
          resource_name: resource.name,
          starts_at: isoInZone(start, resource.timezone),
          ends_at: isoInZone(end, resource.timezone),
          price,
        })),
      );
    },
  );
}
