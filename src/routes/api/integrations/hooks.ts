import { NotFound, ValidationError } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { definedOnly } from "../../../lib/objects";
import { Inbox } from "../../../models/Inbox";
import { findIntegrationApp } from "../../../models/IntegrationApp";
import { HOOK_TYPES, IntegrationHook } from "../../../models/IntegrationHook";
import { requireAdministrator } from "../../../policies";
import { presentHooks } from "./present";
import { hookCreate, hookResponse, hookUpdate } from "./schema";

async function present(hook: IntegrationHook) {
  return (await presentHooks([hook]))[0]!;
}

/**
 * Integrations::Hook's validations: an app this service supports (Chatwoot would store a hook of
 * any app_id, which here would configure nothing), an inbox of this account, and one for inbox apps.
 */
async function validateCreate(ctx: AppContext, appId: string | undefined, inboxId: number | null | undefined) {
  if (!appId) throw ValidationError.of("app_id", "can't be blank");
  const app = findIntegrationApp(appId);
  if (!app) throw ValidationError.of("app_id", "is not an app this service supports");
  if (inboxId && !(await Inbox.query().findOne({ id: inboxId, account_id: ctx.state.account!.id }))) throw ValidationError.of("inbox", "must exist");
  if (app.hook_type === "inbox" && !inboxId) throw ValidationError.of("inbox_id", "can't be blank");
  return app;
}

/** Integrations::HooksController: create, update and destroy, administrators only (HookPolicy). */
export function registerIntegrationHookRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/integrations/hooks";

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Configure an integration app for the account",
      params: accountParams,
      body: hookCreate,
      response: hookResponse,
    },
    async (ctx, { body }) => {
      const app = await validateCreate(ctx, body.app_id, body.inbox_id);
      const hook = await IntegrationHook.query()
        .insert({
          account_id: ctx.state.account!.id,
          app_id: app.id,
          inbox_id: body.inbox_id ?? null,
          hook_type: HOOK_TYPES.indexOf(app.hook_type),
          status: body.status ?? 1,
          settings: body.settings ?? {},
        })
        .returning("*");
      ctx.body = await present(hook);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Change a hook's status or settings",
      params: accountResourceParams,
      body: hookUpdate,
      response: hookResponse,
    },
    async (ctx, { params, body }) => {
      const accountId = ctx.state.account!.id;
      const updated = await IntegrationHook.transaction(async (trx) => {
        const hook = await IntegrationHook.lockInAccount(trx, accountId, params.id);
        const changes = definedOnly({ status: body.status, settings: body.settings === null ? {} : body.settings });
        return Object.keys(changes).length ? IntegrationHook.query(trx).patchAndFetchById(hook.id, changes) : hook;
      });
      ctx.body = await present(updated);
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Remove a hook", params: accountResourceParams },
    async (ctx, { params }) => {
      const deleted = await IntegrationHook.query().delete().where({ id: params.id, account_id: ctx.state.account!.id });
      if (!deleted) throw NotFound();
      headOk(ctx);
    },
  );
}
