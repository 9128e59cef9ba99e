import type { Knex } from "knex";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { CustomFilter, FILTER_TYPES } from "../../../models/CustomFilter";
import { presentCustomFilter } from "../../../presenters/customFilter";
import { customFilterCreate, customFilterListQuery, customFilterResponse, customFiltersResponse, customFilterUpdate } from "./schema";

/** The caller's own filter; another user's is as unknown as a missing one (Chatwoot's where(user:).find). */
async function findOwn(ctx: AppContext, id: number, trx?: Knex.Transaction): Promise<CustomFilter> {
  const query = CustomFilter.ofUser(trx ?? ctx.deps.knex, ctx.state.account!.id, userIdOf(ctx)).findById(id);
  const filter = await (trx ? query.forUpdate() : query);
  if (!filter) throw NotFound();
  return filter;
}

/** Only users reach these routes (the router refuses bots), so the caller has a membership. */
const userIdOf = (ctx: AppContext) => ctx.state.membership!.user_id;
const typeCode = (name: (typeof FILTER_TYPES)[number]) => FILTER_TYPES.indexOf(name);

/**
 * Api::V1::Accounts::CustomFiltersController: every member (CustomFilterPolicy lets agents and
 * administrators alike) manages their own saved filters; Chatwoot does not audit them.
 */
export function registerCustomFilterRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/custom_filters";

  router.route(
    {
      method: "get",
      path,
      summary: "List your saved filters of one filter_type (conversation by default)",
      params: accountParams,
      query: customFilterListQuery,
      response: customFiltersResponse,
    },
    async (ctx, { query }) => {
      const filters = await CustomFilter.ofUser(ctx.deps.knex, ctx.state.account!.id, userIdOf(ctx))
        .where("filter_type", typeCode(query.filter_type))
        .orderBy("id");
      ctx.body = filters.map(presentCustomFilter);
    },
  );

  router.route(
    { method: "get", path: `${path}/:id`, summary: "Get one of your saved filters", params: accountResourceParams, response: customFilterResponse },
    async (ctx, { params }) => {
      ctx.body = presentCustomFilter(await findOwn(ctx, params.id));
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Save a filter (at most 51 per user and account, as Chatwoot counts)",
      params: accountParams,
      body: customFilterCreate,
      response: customFilterResponse,
    },
    async (ctx, { body }) => {
      const accountId = ctx.state.account!.id;
      const userId = userIdOf(ctx);
      const created = await CustomFilter.transaction(async (trx) => {
        await CustomFilter.lockMembership(trx, accountId, userId);
        await CustomFilter.assertWithinLimit(trx, accountId, userId);
        return CustomFilter.query(trx)
          .insert({ account_id: accountId, user_id: userId, name: body.name, filter_type: typeCode(body.filter_type), query: body.query })
          .returning("*");
      });
      ctx.body = presentCustomFilter(created);
    },
  );

  router.route(
    {
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Change one of your saved filters",
      params: accountResourceParams,
      body: customFilterUpdate,
      response: customFilterResponse,
    },
    async (ctx, { params, body }) => {
      const accountId = ctx.state.account!.id;
      const userId = userIdOf(ctx);
      const updated = await CustomFilter.transaction(async (trx) => {
        await CustomFilter.lockMembership(trx, accountId, userId);
        const filter = await findOwn(ctx, params.id, trx);
        await CustomFilter.assertWithinLimit(trx, accountId, userId);
        return CustomFilter.query(trx).patchAndFetchById(filter.id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.filter_type !== undefined ? { filter_type: typeCode(body.filter_type) } : {}),
          ...(body.query !== undefined ? { query: body.query } : {}),
        });
      });
      ctx.body = presentCustomFilter(updated);
    },
  );

  router.route(
    { method: "delete", path: `${path}/:id`, summary: "Delete one of your saved filters", params: accountResourceParams, status: 204 },
    async (ctx, { params }) => {
      const filter = await findOwn(ctx, params.id);
      await CustomFilter.query(ctx.deps.knex).deleteById(filter.id);
      ctx.status = 204;
    },
  );
}
