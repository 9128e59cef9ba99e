import type { Knex } from "knex";
import { ApiError, CouldNotProcess, NotFound } from "../errors";
import { definedOnly } from "../lib/objects";
import type { Account } from "../models/Account";
import { AccountUser, type Role } from "../models/AccountUser";
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
const AgentLimitReached = () => new ApiError(402, { error: "Account limit exceeded. Please purchase more licenses" });

/** The account's users as agents, by name as Chatwoot's order_by_full_name. */
export async function listAgents(accountId: number, db?: Knex): Promise<Member[]> {
  const users = await User.query(db).whereIn("id", AccountUser.query(db).select("user_id").where("account_id", accountId)).orderByRaw("lower(name), id");
  const memberships = await AccountUser.query(db)
    .where("account_id", accountId)
    .whereIn(
      "user_id",
      users.map((u) => u.id),
    );
  const byUser = new Map(memberships.map((m) => [m.user_id, m]));
  return users.map((user) => ({ user, accountUser: byUser.get(user.id)! }));
}

async function agentOf(accountId: number, userId: number, db?: Knex): Promise<Member> {
  const [member] = (await listAgents(accountId, db)).filter((m) => m.user.id === userId);
  if (!member) throw NotFound();
  return member;
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

/** Chatwoot's validate_limit: a numeric `agents` limit on the account caps its users (checked under the account's lock). */
async function assertRoomForAgent(trx: Knex, account: Account): Promise<void> {
  const limit = Number(account.limits?.agents);
  if (!Number.isFinite(limit) || account.limits?.agents == null) return;
  await trx("accounts").where({ id: account.id }).forUpdate().select("id");
  const [{ count }] = await trx("account_users").where({ account_id: account.id }).count<{ count: string }[]>("id as count");
  if (Number(count) >= limit) throw AgentLimitReached();
}

/**
 * Chatwoot's AgentBuilder: the user with that email (created, unconfirmed, when new) joins the account
 * with the role and availability given. A user already in the account is 422 "User has already been taken".
 */
export async function inviteAgent(account: Account, inviter: User, invite: AgentInvite, actor: AuditActor): Promise<Member> {
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
  const joinExisting = async (user: User) => {
    await AccountUser.transaction((trx) => join(user, trx));
    return agentOf(account.id, user.id);
  };
  const existing = await User.findByEmail(invite.email);
  if (existing) return joinExisting(existing);
  const name = invite.name?.trim() || invite.email.split("@")[0]!;
  try {
    const created = await User.createWithToken({ email: invite.email, name }, join, { confirmed: false });
    return agentOf(account.id, created.id);
  } catch (err) {
    // A concurrent invite created the user first: join as that user instead (or learn they are a member).
    const raced = await User.findByEmail(invite.email);
    if (raced) return joinExisting(raced);
    throw err;
  }
}

/** Chatwoot's agents#update: the user's name, and the membership's role, availability and auto_offline. */
export async function updateAgent(account: Account, userId: number, change: AgentChange, actor: AuditActor): Promise<Member> {
  await AccountUser.transaction(async (trx) => {
    const administrators = change.role === "agent" ? await lockAdministrators(trx, account.id) : [];
    const before = await lockedMembership(trx, account.id, userId);
    if (before.role === "administrator" && change.role === "agent" && !administrators.some((id) => id !== userId)) throw LastAdministrator();
    if (change.name !== undefined) await User.query(trx).patch({ name: change.name }).where({ id: userId });
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

/** agents#destroy: never the last administrator; a user left in no account is deleted, as Chatwoot's DeleteObjectJob. */
export async function removeAgent(account: Account, userId: number, actor: AuditActor): Promise<void> {
  await AccountUser.transaction(async (trx) => {
    const administrators = await lockAdministrators(trx, account.id);
    const membership = await lockedMembership(trx, account.id, userId);
    if (membership.role === "administrator" && !administrators.some((id) => id !== userId)) throw LastAdministrator();
    await removeMembership(trx, membership, actor);
    const elsewhere = await AccountUser.query(trx).where({ user_id: userId }).first();
    if (!elsewhere) await (await User.query(trx).findById(userId))?.destroy(trx);
  });
}
