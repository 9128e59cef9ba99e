import { PermissionDenied } from "../errors";
import type { AppContext } from "../http/context";
import type { Role } from "../models/AccountUser";

/**
 * Chatwoot's Pundit policies reduce, for these endpoints, to "which roles may do this".
 * A denied check answers 401, as Chatwoot does.
 */
export function authorize(ctx: AppContext, ...roles: Role[]): void {
  const role = ctx.state.membership?.role;
  if (!role || !roles.includes(role)) throw PermissionDenied();
}

export const requireAdministrator = (ctx: AppContext) => authorize(ctx, "administrator");

/** Any user of the account, whatever their role (agent bots are refused). */
export const requireMember = (ctx: AppContext) => authorize(ctx, "administrator", "agent");
