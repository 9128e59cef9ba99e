import type { AppContext } from "../../../../http/context";
import { openToBots } from "../botAccess";
import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { AccountUser } from "../../../../models/AccountUser";
import { Resource } from "../../../../models/scheduling/Resource";
import { SchedulingSettings } from "../../../../models/scheduling/SchedulingSettings";
import { BreakRule, WorkRule, type WeeklyRuleAttributes } from "../../../../models/scheduling/WeeklyRule";
import { requireAdministrator } from "../../../../policies";
import { presentBreakRule, presentResource, presentWorkRule } from "../../../../presenters/scheduling/resources";
import { invalid, invalidAttribute } from "../../../../scheduling/errors";
import { checks } from "../../../../scheduling/validation";
import { created, list, mustExist, ok, patchLocked, removed } from "../respond";
import { breakRulesBody, type ResourceInput, resourceCreate, resourceRulesParams, resourceUpdate, workRulesBody } from "./schema";
import { accountItemParams, catalogQuery, many, one } from "../common";
import { breakRuleResponse, resourceResponse, workRuleResponse } from "../responses";

export const findResource = (ctx: AppContext, id: number) => mustExist(Resource.ofAccount(ctx.state.account!.id).findById(id), "Resource");

/** Cross-field rules of a resource as it will be saved, and a user_id that must be a member of the account. */
async function validateResource(ctx: AppContext, merged: ResourceInput, changes: ResourceInput) {
  checks()
    .compensation(merged.compensation_type ?? "percent", merged.compensation_value ?? 0)
    .done();
  if (changes.user_id && !(await AccountUser.membership(ctx.state.account!.id, changes.user_id))) {
    throw invalidAttribute("user_id", "must belong to the account");
  }
}

export function registerResourceRoutes(router: ApiRouter, base: string) {
  const path = `${base}/resources`;

  router.route(
    {
      method: "get",
      path,
      summary: "List scheduling resources; inactive ones only with include_inactive",
      params: accountParams,
      query: catalogQuery,
      response: many(resourceResponse),
      middleware: [openToBots],
    },
    async (ctx, { query }) => {
      const resources = Resource.ofAccount(ctx.state.account!.id).orderBy("id");
      if (!query.include_inactive) resources.where("active", true);
      list(ctx, (await resources).map(presentResource));
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/:id`,
      summary: "Get a scheduling resource",
      params: accountItemParams,
      response: one(resourceResponse),
      middleware: [openToBots],
    },
    async (ctx, { params }) => ok(ctx, presentResource(await findResource(ctx, params.id))),
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a scheduling resource",
      params: accountParams,
      body: resourceCreate,
      response: one(resourceResponse),
      status: 201,
    },
    async (ctx, { body }) => {
      await validateResource(ctx, body, body);
      const accountId = ctx.state.account!.id;
      // Without a zone of its own, a resource keeps the account's scheduling timezone.
      const timezone = body.timezone ?? (await SchedulingSettings.of(accountId, ctx.deps.knex)).timezone;
      const resource = await Resource.query()
        .insert({ ...body, timezone, account_id: accountId })
        .returning("*");
      created(ctx, presentResource(resource));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path: `${path}/:id`,
      summary: "Update a scheduling resource",
      params: accountItemParams,
      body: resourceUpdate,
      response: one(resourceResponse),
    },
    async (ctx, { params, body }) => {
      await findResource(ctx, params.id);
      const updated = await patchLocked(Resource, ctx, params.id, "Resource", body, (current) =>
        validateResource(ctx, { compensation_type: current.compensation_type, compensation_value: current.compensation_value, ...body }, body),
      );
      ok(ctx, presentResource(updated));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a scheduling resource and its rules, overrides, time off and prices",
      params: accountItemParams,
      status: 204,
    },
    async (ctx, { params }) => {
      const resource = await findResource(ctx, params.id);
      // Bookings keep their history: such a resource is deactivated instead (active: false).
      if (await Resource.hasAppointments(resource.id)) throw invalid({ base: ["Resource has appointments; deactivate it instead"] });
      await resource.$query().delete();
      removed(ctx);
    },
  );

  registerRuleSetRoutes(router, `${path}/:resource_id/work_rules`, "work rules", WorkRule, workRulesBody, workRuleResponse, presentWorkRule);
  registerRuleSetRoutes(router, `${path}/:resource_id/break_rules`, "break rules", BreakRule, breakRulesBody, breakRuleResponse, presentBreakRule);
}

/** GET and PATCH (replace the whole set) of one kind of weekly rule. */
function registerRuleSetRoutes<R extends WorkRule | BreakRule>(
  router: ApiRouter,
  path: string,
  what: string,
  model: { ofResources(ids: number[]): Promise<R[]>; replaceSet(resource: Resource, rules: WeeklyRuleAttributes[]): Promise<R[]> },
  bodySchema: typeof workRulesBody | typeof breakRulesBody,
  responseSchema: typeof workRuleResponse,
  present: (rule: R) => unknown,
) {
  router.route(
    { method: "get", path, summary: `List a resource's ${what}`, params: resourceRulesParams, response: many(responseSchema) },
    async (ctx, { params }) => {
      const resource = await findResource(ctx, params.resource_id);
      list(ctx, (await model.ofResources([resource.id])).map(present));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path,
      summary: `Replace a resource's ${what}`,
      params: resourceRulesParams,
      body: bodySchema,
      response: many(responseSchema),
    },
    async (ctx, { params, body }) => {
      const resource = await findResource(ctx, params.resource_id);
      list(ctx, (await model.replaceSet(resource, body.rules as WeeklyRuleAttributes[])).map(present));
    },
  );
}
