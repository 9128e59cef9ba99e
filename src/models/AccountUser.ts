import type { Knex } from "knex";
import { Account } from "./Account";
import { BaseModel } from "./BaseModel";

export type Role = "agent" | "administrator";
export const ROLES: readonly Role[] = ["agent", "administrator"];

/** A user's membership of an account, with the role that Chatwoot's policies check. */
export class AccountUser extends BaseModel {
  static tableName = "account_users";

  declare account_id: number;
  declare user_id: number;
  declare role: Role;
  declare inviter_id: number | null;
  declare availability: string;
  declare auto_offline: boolean;
  declare active_at: Date | null;

  /**
   * Chatwoot's find_or_initialize_by(user_id).update!(role): a new member gets the role (agent by
   * default); an existing one keeps theirs unless a role is given. Returns the row before and after.
   */
  static async assignRole(trx: Knex, accountId: number, userId: number, role: Role | undefined): Promise<{ before?: AccountUser; after: AccountUser }> {
    // Insert-or-skip first, so concurrent requests for the same new member never collide.
    const inserted: { id: number }[] = await trx("account_users")
      .insert({ account_id: accountId, user_id: userId, role: role ?? "agent" })
      .onConflict(["account_id", "user_id"])
      .ignore()
      .returning("id");
    if (inserted[0]) return { after: await AccountUser.query(trx).findById(inserted[0].id).throwIfNotFound() };
    const before = await AccountUser.query(trx).findOne({ account_id: accountId, user_id: userId }).forUpdate().throwIfNotFound();
    if (!role || role === before.role) return { before, after: before };
    return { before, after: await AccountUser.query(trx).patchAndFetchById(before.id, { role }) };
  }

  static async membership(accountId: number, userId: number): Promise<AccountUser | undefined> {
    return AccountUser.query().findOne({ account_id: accountId, user_id: userId });
  }

  /** A user's memberships of live accounts, most recently active first (Chatwoot's active_account_user order). */
  static async membershipsOf(userId: number): Promise<{ accountUser: AccountUser; account: Account }[]> {
    const accountUsers = await AccountUser.query()
      .where("user_id", userId)
      .whereIn("account_id", Account.live().select("id"))
      .orderByRaw("active_at DESC NULLS LAST, id");
    const accounts = await Account.query().findByIds(accountUsers.map((au) => au.account_id));
    const byId = new Map(accounts.map((a) => [a.id, a]));
    return accountUsers.map((accountUser) => ({ accountUser, account: byId.get(accountUser.account_id)! }));
  }
}
