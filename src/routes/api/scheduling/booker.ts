import type { AppContext } from "../../../http/context";
import type { Booker } from "../../../scheduling/appointments";

/** Who books, pays or pays out: the account, and the user when a user (not a bot) is calling. */
export function booker(ctx: AppContext): Booker {
  const principal = ctx.state.principal;
  return { account: ctx.state.account!, user: principal?.kind === "user" ? principal.user : null };
}
