import { z } from "zod";
import { ValidationError } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { Account } from "../../../models/Account";
import { AccountUser } from "../../../models/AccountUser";
import { User } from "../../../models/User";
import { presentAccountUser } from "../../../presenters/user";
import { ACCOUNT_USER_AUDITED, removeMembership } from "../../../services/agents";
import { auditActor, auditChange } from "../../../services/audit";
import { permissible } from "../../../policies/platformApps";
import { accountUserCreate, accountUserDelete, accountUserResponse } from "./schema";
import { headOk } from "../../../http/headOk";

const AUDITED = ACCOUNT_USER_AUDITED;

export function registerPlatformAccountUserRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/account_users";
  const findAccount = (id: number) => () => Account.findLive(id);

  router.route(
    { method: "get", path, summary: "List the users of an account", params: accountParams, response: z.array(accountUserResponse) },
    async (ctx, { params }) => {
      const account = await permissible(ctx, "Account", findAccount(params.account_id));
      const rows = await AccountUser.query().where("account_id", account.id).orderBy("id");
      ctx.body = rows.map(presentAccountUser);
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Add a user to an account, or change their role",
      params: accountParams,
      body: accountUserCreate,
      response: accountUserResponse,
    },
    async (ctx, { params, body }) => {
      const account = await permissible(ctx, "Account", findAccount(params.account_id));
      if (!(await User.query().findById(body.user_id))) throw ValidationError.of("user", "must exist");
      const accountUser = await AccountUser.transaction(async (trx) => {
        const { before, after } = await AccountUser.assignRole(trx, account.id, body.user_id, body.role);
        await auditChange(trx, auditActor(ctx), { accountId: account.id, auditableType: "AccountUser", keys: AUDITED, before, after });
        return after;
      });
      ctx.body = presentAccountUser(accountUser);
    },
  );

  router.route(
    { method: "delete", path, summary: "Remove a user from an account", params: accountParams, body: accountUserDelete },
    async (ctx, { params, body }) => {
      const account = await permissible(ctx, "Account", findAccount(params.account_id));
      await AccountUser.transaction(async (trx) => {
        const accountUser = await AccountUser.query(trx).findOne({ account_id: account.id, user_id: body.user_id }).forUpdate();
        if (accountUser) await removeMembership(trx, accountUser, auditActor(ctx));
      });
      headOk(ctx);
    },
  );
}
