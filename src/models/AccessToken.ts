import type { Knex } from "knex";
import { secureToken } from "../lib/tokens";
import { BaseModel } from "./BaseModel";

export type TokenOwnerType = "User" | "AgentBot" | "PlatformApp";

/** The api_access_token of a user, an agent bot or a platform app (one each, as in Chatwoot). */
export class AccessToken extends BaseModel {
  static tableName = "access_tokens";

  declare owner_type: TokenOwnerType;
  declare owner_id: number;
  declare token: string;

  static async issue(ownerType: TokenOwnerType, ownerId: number, trx?: Knex, token = secureToken()): Promise<AccessToken> {
    return AccessToken.query(trx).insert({ owner_type: ownerType, owner_id: ownerId, token });
  }

  /** Replaces the owner's token with a fresh one; the old one stops working at once. */
  static async rotate(ownerType: TokenOwnerType, ownerId: number, trx?: Knex): Promise<string> {
    const token = secureToken();
    await AccessToken.query(trx).patch({ token }).where({ owner_type: ownerType, owner_id: ownerId });
    return token;
  }

  static async tokenOf(ownerType: TokenOwnerType, ownerId: number, trx?: Knex): Promise<string | undefined> {
    const row = await AccessToken.query(trx).findOne({ owner_type: ownerType, owner_id: ownerId });
    return row?.token;
  }

  static async tokensOf(ownerType: TokenOwnerType, ownerIds: number[]): Promise<Map<number, string>> {
    const rows = await AccessToken.query().where("owner_type", ownerType).whereIn("owner_id", ownerIds);
    return new Map(rows.map((row) => [row.owner_id, row.token]));
  }
}
