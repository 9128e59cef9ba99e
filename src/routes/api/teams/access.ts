import type { Knex } from "knex";
import type { Next } from "koa";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { Team, type TeamMember } from "../../../models/Team";
import { type AuditActor, recordAudit } from "../../../services/audit";

/**
 * Resolves the team of the path before the role check, as Chatwoot's fetch_team runs before
 * check_authorization: an unknown team is 404 whoever asks.
 */
export function teamMustExist(param: "id" | "team_id") {
  return async (ctx: AppContext, next: Next) => {
    const id = Number(ctx.params[param]);
    if (!Number.isSafeInteger(id) || id <= 0 || !(await Team.findInAccount(ctx.state.account!.id, id))) throw NotFound();
    await next();
  };
}

/** The team locked for a change; it may have gone since the path was checked (then 404). */
export function lockTeam(trx: Knex.Transaction, ctx: AppContext, id: number): Promise<Team> {
  return Team.lockInAccount(trx, ctx.state.account!.id, id);
}

/**
 * Enterprise::Audit::TeamMember: one row per membership created or destroyed, associated with the
 * account, its changes the row's attributes without timestamps.
 */
export async function auditTeamMembers(trx: Knex, actor: AuditActor, members: TeamMember[], action: "create" | "destroy") {
  for (const member of members) {
    await recordAudit(trx, actor, {
      accountId: member.account_id,
      auditableType: "TeamMember",
      auditableId: member.id,
      action,
      changes: { id: member.id, team_id: member.team_id, user_id: member.user_id },
      associatedType: "Account",
      associatedId: member.account_id,
    });
  }
}
