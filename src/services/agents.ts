import type { Knex } from "knex";
import { ApiError, CouldNotProcess, NotFound, ValidationError } from "../errors";
import { definedOnly } from "../lib/objects";
import type { Account } from "../models/Account";
import { AccountUser, type Role } from "../models/AccountUser";
import { AgentInvitation } from "../models/AgentInvitation";
import type { Member } from "../models/InboxMember";
import { User } from "../models/User";
import { type AuditActor, auditChange } from "./audit";
import { leaveTeams } from "./teams";

/** What Chatwoot's Enterprise::Audit::AccountUser audits. */
export const ACCOUNT_USER_AUDITED = ["availability", "role", "account_id", "inviter_id", "user_id"] as const;

export type Availability = "online" | "offline" | "busy";

export interface AgentInvite {
  email: string;
  name?: string;
  role?: Role;
  availability?: Availability;
  auto_offline?: boolean;
}

export interface AgentChange {
  name?: string;
  role?: Role;
  availability?: Availability;
  auto_offline?: boolean;
}

/** The account must keep an administrator; refusing here is this service's rule, in Chatwoot's 422 shape. */
export const LastAdministrator = () => CouldNotProcess("The account must have at least one administrator");
/** Chatwoot's render_payment_required when the account's agent limit is reached. */
export const AgentLimitReached = () => new ApiError(402, { error: "Account limit exceeded. Please purchase more licenses" });

/** The account's users as agents, by name as Chatwoot's order_by_full_name. */
export async function listAgents(accountId: number, db?: Knex): Promise<Member[]> {
  // Memberships first, then their users: a membership removed meanwhile cannot leave a user without one.
  const memberships = await AccountUser.query(db).where("account_id", accountId);
  const byUser = new Map(memberships.map((m) => [m.user_id, m]));
  const users = await User.query(db)
    .whereIn("id", [...byUser.keys()])
    .orderByRaw("lower(name), id");
  return users.map((user) => ({ user, accountUser: byUser.get(user.id)! }));
}

export async function agentOf(accountId: number, userId: number, db?: Knex): Promise<Member> {
  const accountUser = await AccountUser.query(db).findOne({ account_id: accountId, user_id: userId });
  const user = accountUser && (await User.query(db).findById(userId));
  if (!accountUser || !user) throw NotFound();
  return { user, accountUser };
}

/**
 * The account's administrators, read under a per-account lock that every change able to leave the
 * account without one takes first, so concurrent demotions and removals see each other's outcome.
 * (Locking the administrator rows themselves would take them in no fixed order and deadlock.)
 */
async function lockAdministrators(trx: Knex, accountId: number): Promise<number[]> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('account_administrators'), hashtext(?))", [String(accountId)]);
  const rows: { user_id: number }[] = await trx("account_users").where({ account_id: accountId, role: "administrator" }).select("user_id");
  return rows.map((row) => Number(row.user_id));
}

async function lockedMembership(trx: Knex, accountId: number, userId: number): Promise<AccountUser> {
  const membership = await AccountUser.query(trx).findOne({ account_id: accountId, user_id: userId }).forUpdate();
  if (!membership) throw NotFound();
  return membership;
}

/**
 * Chatwoot's validate_limit: a numeric `agents` limit on the account caps its users, so it must
 * leave room for `joining` more (checked under the account's lock when db is a transaction).
 */
export async function assertRoomForAgent(db: Knex, account: Account, joining = 1): Promise<void> {
  const limit = Number(account.limits?.agents);
  if (!Number.isFinite(limit) || account.limits?.agents == null) return;
  await db("accounts").where({ id: account.id }).forUpdate().select("id");
  const [{ count }] = await db("account_users").where({ account_id: account.id }).count<{ count: string }[]>("id as count");
  if (Number(count) + joining > limit) throw AgentLimitReached();
}

/** What an invite did: the user joined (new to the service, or in no account), or was invited to accept. */
export type InviteOutcome = { member: Member } | { invitation: AgentInvitation; user: User };

/**
 * Chatwoot's AgentBuilder, without its reach into other accounts: a new email becomes an unconfirmed
 * user who joins the account with the role and availability given, as does an existing user who is in
 * no account. A user who belongs to another account is only invited: they join by accepting
 * (agentInvitations.ts), so no account takes in another's user without their consent. A user already
 * in the account is 422 "User has already been taken".
 */
export async function inviteAgent(account: Account, inviter: User, invite: AgentInvite, actor: AuditActor): Promise<InviteOutcome> {
  const join = async (user: User, trx: Knex) => {
    await assertRoomForAgent(trx, account);
    const accountUser = await AccountUser.query(trx)
      .insert({
        account_id: account.id,
        user_id: user.id,
        role: invite.role ?? "agent",
        inviter_id: inviter.id,
        ...definedOnly({ availability: invite.availability, auto_offline: invite.auto_offline }),
      })
      .returning("*");
    await auditChange(trx, actor, { accountId: account.id, auditableType: "AccountUser", keys: ACCOUNT_USER_AUDITED, after: accountUser });
  };
  const joinExisting = async (user: User): Promise<InviteOutcome> => {
    if (await AccountUser.membership(account.id, user.id)) throw ValidationError.of("user_id", "has already been taken");
    if (await AccountUser.query().findOne({ user_id: user.id })) return { invitation: await inviteExistingUser(account, inviter, user, invite), user };
    await AccountUser.transaction((trx) => join(user, trx));
    return { member: await agentOf(account.id, user.id) };
  };
  const existing = await User.findByEmail(invite.email);
  if (existing) return joinExisting(existing);
  const name = invite.name?.trim() || invite.email.split("@")[0]!;
  try {
    const created = await User.createWithToken({ email: invite.email, name }, join, { confirmed: false });
    return { member: await agentOf(account.id, created.id) };
  } catch (err) {
    // A concurrent invite created the user first: join as that user instead (or learn they are a member).
    const raced = await User.findByEmail(invite.email);
    if (raced) return joinExisting(raced);
    throw err;
  }
}

/**
 * The account's pending invitation of a user of another account, made or renewed with the role and
 * availability given; the user accepts or declines it under /api/v1/profile/invitations.
 */
async function inviteExistingUser(account: Account, inviter: User, user: User, invite: AgentInvite): Promise<AgentInvitation> {
  const fields = { role: invite.role ?? "agent", availability: invite.availability ?? null, auto_offline: invite.auto_offline ?? null, inviter_id: inviter.id };
  const [row] = await AgentInvitation.knex()("agent_invitations")
    .insert({ account_id: account.id, user_id: user.id, ...fields })
    .onConflict(["account_id", "user_id"])
    .merge({ ...fields, updated_at: new Date() })
    .returning("*");
  return AgentInvitation.fromDatabaseJson(row);
}

/** A user's name is theirs (their profile); an account may send it back unchanged, as dashboards do. */
const NameNotTheAccounts = () => ValidationError.of("name", "can only be changed by the user in their profile");

/** agents#update on the account's own membership only: role, availability and auto_offline; never the user's profile. */
export async function updateAgent(account: Account, userId: number, change: AgentChange, actor: AuditActor): Promise<Member> {
  await AccountUser.transaction(async (trx) => {
    const administrators = change.role === "agent" ? await lockAdministrators(trx, account.id) : [];
    const before = await lockedMembership(trx, account.id, userId);
    if (change.name !== undefined && change.name !== (await User.query(trx).findById(userId))?.name) throw NameNotTheAccounts();
    if (before.role === "administrator" && change.role === "agent" && !administrators.some((id) => id !== userId)) throw LastAdministrator();
    const fields = definedOnly({ role: change.role, availability: change.availability, auto_offline: change.auto_offline });
    const after = Object.keys(fields).length ? await AccountUser.query(trx).patchAndFetchById(before.id, fields) : before;
    await auditChange(trx, actor, { accountId: account.id, auditableType: "AccountUser", keys: ACCOUNT_USER_AUDITED, before, after });
  });
  return agentOf(account.id, userId);
}

/**
 * Takes a user out of an account as Chatwoot's Agents::DestroyJob does: the membership, the account's
 * inbox and team memberships, and their assignments there (bulk, without events, as update_all).
 */
export async function removeMembership(trx: Knex, membership: AccountUser, actor: AuditActor): Promise<void> {
  const { account_id, user_id } = membership;
  await AccountUser.query(trx).deleteById(membership.id);
  await trx("inbox_members").where({ account_id, user_id }).delete();
  await leaveTeams(trx, actor, account_id, user_id);
  await trx("conversations").where({ account_id, assignee_id: user_id }).update({ assignee_id: null });
  await auditChange(trx, actor, { accountId: account_id, auditableType: "AccountUser", keys: ACCOUNT_USER_AUDITED, before: membership });
}

/**
 * agents#destroy: the membership goes, never the user (who may sign in, or belong elsewhere later);
 * never the last administrator. A user only invited has their invitation withdrawn.
 */
export async function removeAgent(account: Account, userId: number, actor: AuditActor): Promise<void> {
  await AccountUser.transaction(async (trx) => {
    const administrators = await lockAdministrators(trx, account.id);
    const membership = await AccountUser.query(trx).findOne({ account_id: account.id, user_id: userId }).forUpdate();
    const withdrawn = await AgentInvitation.query(trx).delete().where({ account_id: account.id, user_id: userId });
    if (!membership) {
      if (withdrawn) return;
      throw NotFound();
    }
    if (membership.role === "administrator" && !administrators.some((id) => id !== userId)) throw LastAdministrator();
    await removeMembership(trx, membership, actor);
  });
}
