import type { Knex } from "knex";
import { ValidationError } from "../errors";
import { AccountUser } from "./AccountUser";
import { BaseModel } from "./BaseModel";
import { User } from "./User";

export interface Member {
  user: User;
  accountUser: AccountUser;
}

/** The given users of the account as agents, in the given order (repeats kept); non-members are left out. */
export async function loadMembers(accountId: number, userIds: number[], db?: Knex): Promise<Member[]> {
  if (!userIds.length) return [];
  const users = await User.query(db).findByIds(userIds);
  const accountUsers = await AccountUser.query(db).where("account_id", accountId).whereIn("user_id", userIds);
  const userById = new Map(users.map((user) => [user.id, user]));
  const accountUserById = new Map(accountUsers.map((au) => [au.user_id, au]));
  return userIds.flatMap((id) => {
    const user = userById.get(id);
    const accountUser = accountUserById.get(id);
    return user && accountUser ? [{ user, accountUser }] : [];
  });
}

export class InboxMember extends BaseModel {
  static tableName = "inbox_members";

  declare account_id: number;
  declare inbox_id: number;
  declare user_id: number;

  /** Members of the inbox who are users of its account, by user id. */
  static async membersOf(accountId: number, inboxId: number, db?: Knex): Promise<Member[]> {
    const accountUsers = await AccountUser.query(db)
      .where("account_id", accountId)
      .whereIn("user_id", InboxMember.query(db).select("user_id").where("inbox_id", inboxId))
      .orderBy("user_id");
    const users = await User.query(db).findByIds(accountUsers.map((au) => au.user_id));
    const byId = new Map(users.map((user) => [user.id, user]));
    return accountUsers.map((accountUser) => ({ user: byId.get(accountUser.user_id)!, accountUser }));
  }

  static async isMember(inboxId: number, userId: number): Promise<boolean> {
    return Boolean(await InboxMember.query().findOne({ inbox_id: inboxId, user_id: userId }));
  }

  /**
   * Refuses ids that are not users of the account, in Chatwoot's words for a missing user; unlike
   * Chatwoot, a user of another account is no more valid than one that does not exist.
   */
  static async assertAccountUsers(accountId: number, userIds: number[], db?: Knex): Promise<void> {
    if (!userIds.length) return;
    const found = await AccountUser.query(db).where("account_id", accountId).whereIn("user_id", userIds).select("user_id");
    if (found.length < new Set(userIds).size) throw ValidationError.of("user", "must exist");
  }

  /** Adds the users not yet members; returns the new rows. */
  static async addMembers(trx: Knex.Transaction, accountId: number, inboxId: number, userIds: number[]): Promise<InboxMember[]> {
    const current = new Set((await InboxMember.query(trx).where("inbox_id", inboxId).select("user_id")).map((m) => m.user_id));
    const missing = [...new Set(userIds)].filter((id) => !current.has(id));
    if (!missing.length) return [];
    return InboxMember.query(trx)
      .insert(missing.map((user_id) => ({ account_id: accountId, inbox_id: inboxId, user_id })))
      .returning("*");
  }

  /** Removes the listed users' memberships (non-members are ignored); returns the removed rows. */
  static async removeMembers(trx: Knex.Transaction, inboxId: number, userIds: number[]): Promise<InboxMember[]> {
    if (!userIds.length) return [];
    return InboxMember.query(trx).delete().where("inbox_id", inboxId).whereIn("user_id", userIds).returning("*");
  }

  /** Removes every member not in userIds; returns the removed rows. */
  static async removeOthers(trx: Knex.Transaction, inboxId: number, userIds: number[]): Promise<InboxMember[]> {
    return InboxMember.query(trx).delete().where("inbox_id", inboxId).whereNotIn("user_id", userIds).returning("*");
  }
}
