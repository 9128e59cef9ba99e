import type { Knex } from "knex";
import { AccountUser } from "./AccountUser";
import { BaseModel } from "./BaseModel";
import { loadMembers, type Member } from "./InboxMember";

/** A team of agents in an account; conversations may belong to one. */
export class Team extends BaseModel {
  static tableName = "teams";

  declare account_id: number;
  declare name: string;
  declare description: string | null;
  declare allow_auto_assign: boolean;

  static ofAccount(accountId: number, db?: Knex) {
    return Team.query(db).where("teams.account_id", accountId);
  }

  static async findInAccount(accountId: number, id: number, db?: Knex): Promise<Team | undefined> {
    return Team.ofAccount(accountId, db).findById(id);
  }

  /** The team locked for a change of it or its members, so concurrent changes apply one after the other. */
  /** Push event data of a team (Team#push_event_data), as webhooks show it. */
  pushEventData() {
    return { id: this.id, name: this.name };
  }
}

/** A user's membership of a team; the user must be a user of the team's account. */
export class TeamMember extends BaseModel {
  static tableName = "team_members";

  declare account_id: number;
  declare team_id: number;
  declare user_id: number;

  /** Members of the team who are users of its account, in the order they joined. */
  static async membersOf(accountId: number, teamId: number, db?: Knex): Promise<Member[]> {
    const rows = await TeamMember.query(db)
      .where("team_members.team_id", teamId)
      .join("account_users", (join) => join.on("account_users.user_id", "team_members.user_id").andOnVal("account_users.account_id", accountId))
      .orderBy("team_members.id")
      .select("team_members.user_id");
    return loadMembers(
      accountId,
      rows.map((row) => row.user_id),
      db,
    );
  }

  /** Whether every id is a user of the account. */
  static async allAccountUsers(accountId: number, userIds: number[], db?: Knex): Promise<boolean> {
    const unique = [...new Set(userIds)];
    if (!unique.length) return true;
    const found = await AccountUser.query(db).where("account_id", accountId).whereIn("user_id", unique).resultSize();
    return found === unique.length;
  }

  /** Adds the users not yet members (concurrent additions of the same user leave one row); returns the new rows. */
  static async addMembers(trx: Knex.Transaction, team: Team, userIds: number[]): Promise<TeamMember[]> {
    const unique = [...new Set(userIds)];
    if (!unique.length) return [];
    const inserted: { id: number }[] = await trx("team_members")
      .insert(unique.map((user_id) => ({ account_id: team.account_id, team_id: team.id, user_id })))
      .onConflict(["team_id", "user_id"])
      .ignore()
      .returning("id");
    if (!inserted.length) return [];
    return TeamMember.query(trx)
      .findByIds(inserted.map((row) => row.id))
      .orderBy("id");
  }

  /** Removes the listed users' memberships (others are ignored); returns the removed rows. */
  static async removeMembers(trx: Knex.Transaction, teamId: number, userIds: number[]): Promise<TeamMember[]> {
    if (!userIds.length) return [];
    return TeamMember.query(trx).delete().where("team_id", teamId).whereIn("user_id", userIds).returning("*");
  }

  /** Removes every member not in userIds; returns the removed rows. */
  static async removeOthers(trx: Knex.Transaction, teamId: number, userIds: number[]): Promise<TeamMember[]> {
    return TeamMember.query(trx).delete().where("team_id", teamId).whereNotIn("user_id", userIds).returning("*");
  }

  /** The ids of the teams the user belongs to in the account (for `is_member`). */
  static async teamIdsOf(accountId: number, userId: number, db?: Knex): Promise<Set<number>> {
    const rows = await TeamMember.query(db).where({ account_id: accountId, user_id: userId }).select("team_id");
    return new Set(rows.map((row) => row.team_id));
  }
}
