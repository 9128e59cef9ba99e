import type { AppContext } from "../../../../http/context";
import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { Holiday } from "../../../../models/scheduling/Holiday";
import { Resource } from "../../../../models/scheduling/Resource";
import { SchedulingSettings } from "../../../../models/scheduling/SchedulingSettings";
import { TimeOff } from "../../../../models/scheduling/TimeOff";
import { WorkdayOverride } from "../../../../models/scheduling/WorkdayOverride";
import { requireAdministrator } from "../../../../policies";
import { presentHoliday, presentTimeOff, presentWorkdayOverride } from "../../../../presenters/scheduling/exceptions";
import { checks } from "../../../../scheduling/validation";
import { resolveTime } from "../../../../scheduling/wallTime";
import { requireResource } from "../resourceChecks";
import { created, list, mustExist, ok, patchLocked, removed } from "../respond";
import {
  holidayCreate,
  holidayUpdate,
  type OverrideInput,
  overrideCreate,
  overridesQuery,
  overrideUpdate,
  type TimeOffInput,
  timeOffCreate,
  timeOffsQuery,
  timeOffUpdate,
} from "./schema";
import { accountItemParams, many, one } from "../common";
import { holidayResponse, overrideResponse, timeOffResponse } from "../responses";

/** Hours of one date: end after start, and a break given whole, inside the hours. */
function validateOverride(o: OverrideInput) {
  const c = checks().minuteRange(o.start_minute!, o.end_minute!);
  const breakStart = o.break_start_minute ?? null;
  const breakEnd = o.break_end_minute ?? null;
  if ((breakStart === null) !== (breakEnd === null)) {
    c.add(breakStart === null ? "break_start_minute" : "break_end_minute", "must be given together with the other break minute");
  } else if (breakStart !== null && breakEnd !== null) {
    c.minuteRange(breakStart, breakEnd, "break_end_minute");
    if (breakStart < o.start_minute! || breakEnd > o.end_minute!) c.add("break_start_minute", "must lie within the working hours");
  }
  c.done();
}

function validateTimeOff(t: { starts_at: Date; ends_at: Date }) {
  const c = checks();
  if (t.ends_at.getTime() <= t.starts_at.getTime()) c.add("ends_at", "must be after starts_at");
  c.done();
}

/** The zone a time off's times without an offset are read in: its resource's, else the account's scheduling timezone. */
async function timeOffZone(ctx: AppContext, resourceId: number | null | undefined): Promise<string> {
  const resource = resourceId ? await Resource.ofAccount(ctx.state.account!.id).findById(resourceId) : undefined;
  return resource?.timezone ?? (await SchedulingSettings.of(ctx.state.account!.id, ctx.deps.knex)).timezone;
}

/** The body with its times placed in the zone. */
function timesIn<T extends TimeOffInput>(body: T, zone: string) {
  const { starts_at, ends_at, ...rest } = body;
  return {
    ...rest,
    ...(starts_at ? { starts_at: resolveTime(starts_at, zone) } : {}),
    ...(ends_at ? { ends_at: resolveTime(ends_at, zone) } : {}),
  };
}

export function registerExceptionRoutes(router: ApiRouter, base: string) {
  const accountId = (ctx: AppContext) => ctx.state.account!.id;

  // ---- holidays: account-wide
  const holidays = `${base}/holidays`;
  const findHoliday = (ctx: AppContext, id: number) => mustExist(Holiday.ofAccount(accountId(ctx)).findById(id), "Holiday");

  router.route({ method: "get", path: holidays, summary: "List holidays", params: accountParams, response: many(holidayResponse) }, async (ctx) => {
    list(ctx, (await Holiday.ofAccount(accountId(ctx))).map(presentHoliday));
  });

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: holidays,
      summary: "Create a holiday",
      params: accountParams,
      body: holidayCreate,
      response: one(holidayResponse),
      status: 201,
    },
    async (ctx, { body }) => {
      created(
        ctx,
        presentHoliday(
          await Holiday.query()
            .insert({ ...body, account_id: accountId(ctx) })
            .returning("*"),
        ),
      );
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path: `${holidays}/:id`,
      summary: "Update a holiday",
      params: accountItemParams,
      body: holidayUpdate,
      response: one(holidayResponse),
    },
    async (ctx, { params, body }) => {
      ok(ctx, presentHoliday(await patchLocked(Holiday, ctx, params.id, "Holiday", body)));
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${holidays}/:id`, summary: "Delete a holiday", params: accountItemParams, status: 204 },
    async (ctx, { params }) => {
      const holiday = await findHoliday(ctx, params.id);
      await holiday.$query().delete();
      removed(ctx);
    },
  );

  // ---- workday overrides: one per resource and date
  const overrides = `${base}/workday_overrides`;
  const findOverride = (ctx: AppContext, id: number) => mustExist(WorkdayOverride.ofAccount(accountId(ctx)).findById(id), "Workday override");

  router.route(
    { method: "get", path: overrides, summary: "List workday overrides", params: accountParams, query: overridesQuery, response: many(overrideResponse) },
    async (ctx, { query }) => {
      const rows = WorkdayOverride.ofAccount(accountId(ctx));
      if (query.resource_id) rows.where("resource_id", query.resource_id);
      list(ctx, (await rows).map(presentWorkdayOverride));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: overrides,
      summary: "Create a workday override",
      params: accountParams,
      body: overrideCreate,
      response: one(overrideResponse),
      status: 201,
    },
    async (ctx, { body }) => {
      await requireResource(ctx, body.resource_id);
      validateOverride(body);
      created(
        ctx,
        presentWorkdayOverride(
          await WorkdayOverride.query()
            .insert({ ...body, account_id: accountId(ctx) })
            .returning("*"),
        ),
      );
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path: `${overrides}/:id`,
      summary: "Update a workday override",
      params: accountItemParams,
      body: overrideUpdate,
      response: one(overrideResponse),
    },
    async (ctx, { params, body }) => {
      await findOverride(ctx, params.id);
      if (body.resource_id) await requireResource(ctx, body.resource_id);
      const updated = await patchLocked(WorkdayOverride, ctx, params.id, "Workday override", body, (current) =>
        validateOverride({ ...presentWorkdayOverride(current), ...body }),
      );
      ok(ctx, presentWorkdayOverride(updated));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${overrides}/:id`,
      summary: "Delete a workday override",
      params: accountItemParams,
      status: 204,
    },
    async (ctx, { params }) => {
      const override = await findOverride(ctx, params.id);
      await override.$query().delete();
      removed(ctx);
    },
  );

  // ---- time off: a resource's, or everyone's when resource_id is null
  const timeOffs = `${base}/time_offs`;
  const findTimeOff = (ctx: AppContext, id: number) => mustExist(TimeOff.ofAccount(accountId(ctx)).findById(id), "Time off");

  router.route(
    { method: "get", path: timeOffs, summary: "List time off", params: accountParams, query: timeOffsQuery, response: many(timeOffResponse) },
    async (ctx, { query }) => {
      const rows = TimeOff.ofAccount(accountId(ctx));
      if (query.resource_id) rows.where("resource_id", query.resource_id);
      if (query.from) rows.where("starts_at", ">=", query.from);
      if (query.to) rows.where("starts_at", "<", query.to);
      list(ctx, (await rows).map(presentTimeOff));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: timeOffs,
      summary: "Create time off",
      params: accountParams,
      body: timeOffCreate,
      response: one(timeOffResponse),
      status: 201,
    },
    async (ctx, { body }) => {
      if (body.resource_id) await requireResource(ctx, body.resource_id);
      const row = timesIn(body, await timeOffZone(ctx, body.resource_id));
      validateTimeOff({ starts_at: row.starts_at!, ends_at: row.ends_at! });
      created(
        ctx,
        presentTimeOff(
          await TimeOff.query()
            .insert({ ...row, account_id: accountId(ctx) })
            .returning("*"),
        ),
      );
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path: `${timeOffs}/:id`,
      summary: "Update time off",
      params: accountItemParams,
      body: timeOffUpdate,
      response: one(timeOffResponse),
    },
    async (ctx, { params, body }) => {
      const stored = await findTimeOff(ctx, params.id);
      if (body.resource_id) await requireResource(ctx, body.resource_id);
      const changes = timesIn(body, await timeOffZone(ctx, "resource_id" in body ? body.resource_id : stored.resource_id));
      const updated = await patchLocked(TimeOff, ctx, params.id, "Time off", changes, (current) =>
        validateTimeOff({ starts_at: changes.starts_at ?? current.starts_at, ends_at: changes.ends_at ?? current.ends_at }),
      );
      ok(ctx, presentTimeOff(updated));
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${timeOffs}/:id`, summary: "Delete time off", params: accountItemParams, status: 204 },
    async (ctx, { params }) => {
      const timeOff = await findTimeOff(ctx, params.id);
      await timeOff.$query().delete();
      removed(ctx);
    },
  );
}
