import type { Knex } from "knex";
import { TeamMember } from "../models/Team";
import { type AuditActor, recordAudit } from "./audit";

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

/**
 * Agents::DestroyJob#remove_user_from_teams: a user leaving an account leaves its teams, each
 * membership audited as its destroy. Call it in the transaction that removes the account user.
 */
export async function leaveTeams(trx: Knex, actor: AuditActor, accountId: number, userId: number): Promise<void> {
  const removed = await TeamMember.query(trx).delete().where({ account_id: accountId, user_id: userId }).returning("*");
  await auditTeamMembers(trx, actor, removed, "destroy");
}
