import type { AppContext } from "../../../../http/context";
import { openToBots } from "../botAccess";
import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { Service } from "../../../../models/scheduling/Service";
import { requireAdministrator } from "../../../../policies";
import { presentService } from "../../../../presenters/scheduling/services";
import { notFound } from "../../../../scheduling/errors";
import { checks } from "../../../../scheduling/validation";
import { anyUnknownResource } from "../resourceChecks";
import { created, list, mustExist, ok, removed } from "../respond";
import { accountItemParams, catalogQuery, many, one } from "../common";
import { type ServiceInput, serviceCreate, serviceResponse, serviceUpdate } from "./schema";

/**
 * Per-resource prices: one per resource of the account, positive while active, percent within 0..100.
 * An unknown resource is 404, not 422: the fork looks each one up with `find` before saving its price.
 */
async function validatePrices(ctx: AppContext, prices: NonNullable<ServiceInput["prices"]>) {
  if (
    await anyUnknownResource(
      ctx,
      prices.map((p) => p.resource_id),
    )
  )
    throw notFound("Resource");
  const c = checks();
  const seen = new Set<number>();
  prices.forEach((price, index) => {
    if (seen.has(price.resource_id)) c.add(`prices.${index}.resource_id`, "has already been taken");
    seen.add(price.resource_id);
    if (price.active && price.price <= 0) c.add(`prices.${index}.price`, "must be greater than 0 while the price is active");
    c.compensation(price.compensation_type, price.compensation_value, `prices.${index}.compensation_value`);
  });
  c.done();
}

async function save(ctx: AppContext, existing: Service | undefined, body: ServiceInput): Promise<Service> {
  const { prices, ...attributes } = body;
  if (prices) await validatePrices(ctx, prices);
  return Service.save(ctx.state.account!.id, existing, attributes, prices);
}

export function registerServiceRoutes(router: ApiRouter, base: string) {
  const path = `${base}/services`;
  const findService = (ctx: AppContext, id: number) => mustExist(Service.ofAccount(ctx.state.account!.id).findById(id), "Service");

  router.route(
    {
      method: "get",
      path,
      summary: "List scheduling services with their prices; inactive ones only with include_inactive",
      params: accountParams,
      query: catalogQuery,
      response: many(serviceResponse),
      middleware: [openToBots],
    },
    async (ctx, { query }) => {
      const services = Service.ofAccount(ctx.state.account!.id);
      if (!query.include_inactive) services.where("active", true);
      list(ctx, (await services).map(presentService));
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/:id`,
      summary: "Get a scheduling service",
      params: accountItemParams,
      response: one(serviceResponse),
      middleware: [openToBots],
    },
    async (ctx, { params }) => ok(ctx, presentService(await findService(ctx, params.id))),
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a scheduling service",
      params: accountParams,
      body: serviceCreate,
      response: one(serviceResponse),
      status: 201,
    },
    async (ctx, { body }) => {
      created(ctx, presentService(await save(ctx, undefined, body)));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "patch",
      path: `${path}/:id`,
      summary: "Update a scheduling service; `prices` replaces the per-resource price set",
      params: accountItemParams,
      body: serviceUpdate,
      response: one(serviceResponse),
    },
    async (ctx, { params, body }) => {
      ok(ctx, presentService(await save(ctx, await findService(ctx, params.id), body)));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a scheduling service and its prices",
      params: accountItemParams,
      status: 204,
    },
    async (ctx, { params }) => {
      const service = await findService(ctx, params.id);
      await service.$query().delete();
      removed(ctx);
    },
  );
}
