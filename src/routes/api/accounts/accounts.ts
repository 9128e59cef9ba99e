import { type ApiRouter, UPDATE } from "../../../http/router";
import { idParams } from "../../../http/schemas";
import { NotFound, PermissionDenied } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { Account } from "../../../models/Account";
import { AccountUser } from "../../../models/AccountUser";
import { presentAccount, presentAccountWithVersion } from "../../../presenters/account";
import { definedOnly } from "../../../lib/objects";
import { updateAccount } from "../../../services/accounts";
import { auditActor } from "../../../services/audit";
import { accountResponse, accountUpdateSchema, type AccountUpdate } from "./schema";

/** Chatwoot looks the account up among the user's own (current_user.accounts.find): others are 404. */
async function memberAccount(ctx: AppContext, id: number) {
  const principal = ctx.state.principal!;
  if (principal.kind !== "user") throw NotFound();
  const [account, membership] = await Promise.all([Account.findLive(id), AccountUser.membership(id, principal.user.id)]);
  if (!account || !membership) throw NotFound();
  return { account, membership };
}

/** Chatwoot's update: columns assigned, settings and some custom attributes merged into their hashes. */
function updatedAttributes(account: Account, body: AccountUpdate) {
  const { name, locale, domain, support_email, industry, company_size, timezone, ...settings } = body;
  return {
    ...definedOnly({ name, locale, domain, support_email }),
    settings: { ...account.settings, ...definedOnly(settings) },
    custom_attributes: { ...account.custom_attributes, ...definedOnly({ industry, company_size, timezone }) },
  };
}

export function registerAccountRoutes(router: ApiRouter) {
  router.route({ method: "get", path: "/accounts/:id", summary: "Get the account", params: idParams, response: accountResponse }, async (ctx, { params }) => {
    const { account } = await memberAccount(ctx, params.id);
    ctx.body = presentAccountWithVersion(account);
  });

  router.route(
    { method: UPDATE, path: "/accounts/:id", summary: "Update the account", params: idParams, body: accountUpdateSchema, response: accountResponse },
    async (ctx, { params, body }) => {
      const { account, membership } = await memberAccount(ctx, params.id);
      if (membership.role !== "administrator") throw PermissionDenied();
      const updated = await updateAccount(account.id, (locked) => updatedAttributes(locked, body), auditActor(ctx));
      ctx.body = presentAccount(updated);
    },
  );
}
