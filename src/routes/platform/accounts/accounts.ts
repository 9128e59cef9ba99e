import { z } from "zod";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { idParams } from "../../../http/schemas";
import { definedOnly } from "../../../lib/objects";
import { Account } from "../../../models/Account";
import { applyFeatureToggles, DEFAULT_FEATURES } from "../../../models/accountFeatures";
import { presentPlatformAccount } from "../../../presenters/account";
import { requestAccountDeletion } from "../../../services/accountDeletion";
import { updateAccount } from "../../../services/accounts";
import { auditActor } from "../../../services/audit";
import { permissible, platformApp } from "../../../policies/platformApps";
import { platformAccountCreate, platformAccountResponse, platformAccountUpdate } from "./schema";
import { headOk } from "../../../http/headOk";

export function registerPlatformAccountRoutes(router: ApiRouter) {
  const find = (id: number) => () => Account.findLive(id);

  router.route(
    { method: "get", path: "/accounts", summary: "The accounts this platform app created or was given", response: z.array(platformAccountResponse) },
    async (ctx) => {
      const ids = await platformApp(ctx).permittedIds("Account");
      const accounts = ids.length ? await Account.live().whereIn("id", ids).orderBy("id") : [];
      ctx.body = accounts.map(presentPlatformAccount);
    },
  );

  router.route(
    { method: "post", path: "/accounts", summary: "Create an account", body: platformAccountCreate, response: platformAccountResponse },
    async (ctx, { body }) => {
      const { features = {}, ...attributes } = body;
      const account = await Account.transaction(async (trx) => {
        const created = await Account.query(trx)
          .insert({
            ...definedOnly(attributes),
            features: applyFeatureToggles(DEFAULT_FEATURES, features),
          })
          .returning("*");
        await platformApp(ctx).permit("Account", created.id, trx);
        return created;
      });
      ctx.body = presentPlatformAccount(account);
    },
  );

  router.route(
    { method: "get", path: "/accounts/:id", summary: "Get an account", params: idParams, response: platformAccountResponse },
    async (ctx, { params }) => {
      ctx.body = presentPlatformAccount(await permissible(ctx, "Account", find(params.id)));
    },
  );

  router.route(
    { method: UPDATE, path: "/accounts/:id", summary: "Update an account", params: idParams, body: platformAccountUpdate, response: platformAccountResponse },
    async (ctx, { params, body }) => {
      const account = await permissible(ctx, "Account", find(params.id));
      const { features, ...attributes } = body;
      const updated = await updateAccount(
        account.id,
        (locked) => ({ ...definedOnly(attributes), ...(features ? { features: applyFeatureToggles(locked.features, features) } : {}) }),
        auditActor(ctx),
      );
      ctx.body = presentPlatformAccount(updated);
    },
  );

  router.route(
    { method: "delete", path: "/accounts/:id", summary: "Delete an account and all its data (in the background)", params: idParams },
    async (ctx, { params }) => {
      const account = await permissible(ctx, "Account", find(params.id));
      await requestAccountDeletion(ctx.deps, account);
      headOk(ctx);
    },
  );
}
