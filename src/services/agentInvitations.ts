import { NotFound } from "../errors";
import { definedOnly } from "../lib/objects";
import { Account } from "../models/Account";
import { AccountUser } from "../models/AccountUser";
import { AgentInvitation } from "../models/AgentInvitation";
import type { Member } from "../models/InboxMember";
import type { User } from "../models/User";
import { ACCOUNT_USER_AUDITED, agentOf, assertRoomForAgent } from "./agents";
import { type AuditActor, auditChange } from "./audit";

export interface PendingInvitation {
  invitation: AgentInvitation;
  account: Account;
}

/** The user's pending invitations to live accounts, oldest first. */
export async function invitationsOf(userId: number): Promise<PendingInvitation[]> {
  const invitations = await AgentInvitation.query().where({ user_id: userId }).whereIn("account_id", Account.live().select("id")).orderBy("id");
  const accounts = new Map((await Account.query().findByIds(invitations.map((i) => i.account_id))).map((a) => [a.id, a]));
  return invitations.map((invitation) => ({ invitation, account: accounts.get(invitation.account_id)! }));
}

/**
 * The invited user joins the account with the invitation's role and availability (its inviter
 * recorded, audited as the membership's creation), within the account's agent limit. The invitation
 * is used up in the same transaction, so accepting twice at once joins once; a user who has meanwhile
 * become a member simply keeps their membership.
 */
export async function acceptInvitation(user: User, invitationId: number, actor: AuditActor): Promise<Member> {
  const accountId = await AccountUser.transaction(async (trx) => {
    const [invitation] = (await AgentInvitation.query(trx)
      .delete()
      .where({ id: invitationId, user_id: user.id })
      .returning("*")) as unknown as AgentInvitation[];
    if (!invitation) throw NotFound();
    const account = await Account.findLive(invitation.account_id, trx);
    if (!account) throw NotFound();
    if (await AccountUser.query(trx).findOne({ account_id: account.id, user_id: user.id })) return account.id;
    await assertRoomForAgent(trx, account);
    const accountUser = await AccountUser.query(trx)
      .insert({
        account_id: account.id,
        user_id: user.id,
        role: invitation.role,
        inviter_id: invitation.inviter_id,
        ...definedOnly({ availability: invitation.availability ?? undefined, auto_offline: invitation.auto_offline ?? undefined }),
      })
      .returning("*");
    await auditChange(trx, actor, { accountId: account.id, auditableType: "AccountUser", keys: ACCOUNT_USER_AUDITED, after: accountUser });
    return account.id;
  });
  return agentOf(accountId, user.id);
}

/** The invited user declines: the invitation is gone and the account learns nothing more. */
export async function declineInvitation(user: User, invitationId: number): Promise<void> {
  const deleted = await AgentInvitation.query().delete().where({ id: invitationId, user_id: user.id });
  if (!deleted) throw NotFound();
}
