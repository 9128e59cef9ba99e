import type { Next } from "koa";
import { AccountSuspended, BotNotInAccount, NotFound, NotInAccount } from "../errors";
import type { AppContext } from "../http/context";
import { Account } from "../models/Account";
import { AccountUser } from "../models/AccountUser";
import { AgentBotInbox } from "../models/AgentBotInbox";

/**
 * Loads the account of /api/v1/accounts/:account_id and checks the caller belongs to it
 * (Chatwoot's EnsureCurrentAccountHelper). Everything after it reads ctx.state.account.
 */
export async function accountScope(ctx: AppContext, next: Next) {
  const accountId = Number(ctx.params.account_id);
  const account = Number.isSafeInteger(accountId) && accountId > 0 ? await Account.findLive(accountId) : undefined;
  if (!account) throw NotFound();

  const principal = ctx.state.principal!;
  if (principal.kind === "user") {
    const membership = await AccountUser.membership(account.id, principal.user.id);
    if (!membership) throw NotInAccount();
    ctx.state.membership = membership;
  } else if (principal.kind === "agent_bot") {
    const allowed = principal.bot.account_id === account.id || (await AgentBotInbox.servesAccount(principal.bot.id, account.id));
    if (!allowed) throw BotNotInAccount();
  }
  if (account.status === "suspended") throw AccountSuspended();

  ctx.state.account = account;
  await next();
}
