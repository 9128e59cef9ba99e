import { z } from "zod";
import { NotFound, ValidationError } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { definedOnly } from "../../../lib/objects";
import { CustomAttributeDefinition } from "../../../models/CustomAttributeDefinition";
import { authorize, requireAdministrator } from "../../../policies";
import { presentCustomAttributeDefinition } from "../../../presenters/customAttributeDefinition";
import { definitionBody, definitionListQuery, definitionResponse } from "./schema";

/** Two requests racing past validate hit the unique index; answer as validate would have. */
async function keyUnique<T>(write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as { code?: string }).code === "23505") throw ValidationError.of("attribute_key", "has already been taken");
    throw err;
  }
}

async function findDefinition(ctx: AppContext, id: number): Promise<CustomAttributeDefinition> {
  const definition = await CustomAttributeDefinition.query().findOne({ id, account_id: ctx.state.account!.id });
  if (!definition) throw NotFound();
  return definition;
}

export function registerCustomAttributeDefinitionRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/custom_attribute_definitions";

  router.route(
    {
      method: "get",
      path,
      summary: "List custom attribute definitions, optionally of one attribute_model",
      params: accountParams,
      query: definitionListQuery,
      response: z.array(definitionResponse),
    },
    async (ctx, { query }) => {
      authorize(ctx, "administrator", "agent");
      const definitions = CustomAttributeDefinition.ofAccount(ctx.state.account!.id);
      if (query.attribute_model !== undefined) definitions.where("attribute_model", query.attribute_model);
      ctx.body = (await definitions).map(presentCustomAttributeDefinition);
    },
  );

  router.route(
    { method: "get", path: `${path}/:id`, summary: "Get a custom attribute definition", params: accountResourceParams, response: definitionResponse },
    async (ctx, { params }) => {
      authorize(ctx, "administrator", "agent");
      ctx.body = presentCustomAttributeDefinition(await findDefinition(ctx, params.id));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a custom attribute definition",
      params: accountParams,
      body: definitionBody,
      response: definitionResponse,
    },
    async (ctx, { body }) => {
      const attributes = { ...definedOnly(body), account_id: ctx.state.account!.id };
      await CustomAttributeDefinition.validate(CustomAttributeDefinition.knex(), attributes);
      const created = await keyUnique(() => CustomAttributeDefinition.query().insert(attributes).returning("*"));
      ctx.body = presentCustomAttributeDefinition(created);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a custom attribute definition",
      params: accountResourceParams,
      body: definitionBody,
      response: definitionResponse,
    },
    async (ctx, { params, body }) => {
      const definition = await findDefinition(ctx, params.id);
      const changes = definedOnly(body);
      const updated = await keyUnique(() =>
        CustomAttributeDefinition.transaction(async (trx) => {
          // Locked: the combination validated is the one stored, and a definition deleted meanwhile is a 404.
          const current = await CustomAttributeDefinition.lockInAccount(trx, definition.account_id, definition.id);
          await CustomAttributeDefinition.validate(trx, { ...current, ...changes }, current);
          return current.$query(trx).patchAndFetch(changes);
        }),
      );
      ctx.body = presentCustomAttributeDefinition(updated);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a custom attribute definition",
      params: accountResourceParams,
      status: 204,
    },
    async (ctx, { params }) => {
      await CustomAttributeDefinition.query().deleteById((await findDefinition(ctx, params.id)).id);
      ctx.status = 204;
    },
  );
}
