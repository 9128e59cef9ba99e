import type { Next } from "koa";
import { AccountSuspended, BotNotInAccount, NotFound, NotInAccount } from "../errors";
import type { AppContext, Principal } from "../http/context";
import { Account } from "../models/Account";
import { AccountUser } from "../models/AccountUser";
import { AgentBotInbox } from "../models/AgentBotInbox";
import { requestCopy } from "../auth/authCache";

/** What the caller is in the account: the account, the user's membership, or a bot's allowance. */
interface Scope {
  account?: Account;
  membership?: AccountUser;
  botAllowed?: boolean;
}

async function loadScope(accountId: number, principal: Principal): Promise<Scope> {
  const account = await Account.findLive(accountId);
  if (!account) return {};
  if (principal.kind === "user") return { account, membership: await AccountUser.membership(account.id, principal.user.id) };
  if (principal.kind === "agent_bot") {
    return { account, botAllowed: principal.bot.account_id === account.id || (await AgentBotInbox.servesAccount(principal.bot.id, account.id)) };
  }
  return { account };
}

/** The scope from the auth cache when there is one, copied so handlers never share cached models. */
async function scopeOf(ctx: AppContext, accountId: number, principal: Principal): Promise<Scope> {
  const cache = ctx.deps.authCache;
  const owner =
    principal.kind === "user" ? `user:${principal.user.id}` : principal.kind === "agent_bot" ? `bot:${principal.bot.id}` : `app:${principal.app.id}`;
  const scope = cache ? await cache.get(`scope:${owner}:${accountId}`, () => loadScope(accountId, principal)) : await loadScope(accountId, principal);
  return { account: scope.account && requestCopy(scope.account), membership: scope.membership && requestCopy(scope.membership), botAllowed: scope.botAllowed };
}

/**
 * Loads the account of /api/v1/accounts/:account_id and checks the caller belongs to it
 * (Chatwoot's EnsureCurrentAccountHelper). Everything after it reads ctx.state.account.
 */
export async function accountScope(ctx: AppContext, next: Next) {
  const accountId = Number(ctx.params.account_id);
  const principal = ctx.state.principal!;
  const { account, membership, botAllowed } = Number.isSafeInteger(accountId) && accountId > 0 ? await scopeOf(ctx, accountId, principal) : {};
  if (!account) throw NotFound();

  if (principal.kind === "user") {
    if (!membership) throw NotInAccount();
    ctx.state.membership = membership;
  } else if (principal.kind === "agent_bot" && !botAllowed) {
    throw BotNotInAccount();
  }
  if (account.status === "suspended") throw AccountSuspended();

  ctx.state.account = account;
  await next();
}
