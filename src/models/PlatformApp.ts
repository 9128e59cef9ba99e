import type { Knex } from "knex";
import { AccessToken } from "./AccessToken";
import { BaseModel } from "./BaseModel";

export type PermissibleType = "Account" | "User" | "AgentBot";

/** A platform application: provisions accounts, users and bots, and sees only what it created. */
export class PlatformApp extends BaseModel {
  static tableName = "platform_apps";

  declare name: string;

  static async createWithToken(name: string, token?: string): Promise<{ app: PlatformApp; token: string }> {
    return PlatformApp.transaction(async (trx) => {
      const app = await PlatformApp.query(trx).insert({ name }).returning("*");
      const accessToken = await AccessToken.issue("PlatformApp", app.id, trx, token);
      return { app, token: accessToken.token };
    });
  }

  /** Startup bootstrap for PLATFORM_APP_TOKEN: the app with that token exists afterwards, created once. */
  static async ensureWithToken(token: string, name = "Default platform app"): Promise<void> {
    const existing = await AccessToken.query().findOne({ token });
    if (existing && existing.owner_type !== "PlatformApp") {
      throw new Error("PLATFORM_APP_TOKEN is already the token of a user or agent bot");
    }
    if (!existing) await PlatformApp.createWithToken(name, token);
  }

  async permit(type: PermissibleType, id: number, trx?: Knex): Promise<void> {
    await (trx ?? PlatformApp.knex())("platform_app_permissibles")
      .insert({ platform_app_id: this.id, permissible_type: type, permissible_id: id })
      .onConflict(["platform_app_id", "permissible_type", "permissible_id"])
      .ignore();
  }

  async permits(type: PermissibleType, id: number): Promise<boolean> {
    const row = await PlatformApp.knex()
      .table("platform_app_permissibles")
      .where({ platform_app_id: this.id, permissible_type: type, permissible_id: id })
      .first();
    return Boolean(row);
  }

  async permittedIds(type: PermissibleType): Promise<number[]> {
    const rows: { permissible_id: number }[] = await PlatformApp.knex()
      .table("platform_app_permissibles")
      .where({ platform_app_id: this.id, permissible_type: type })
      .orderBy("permissible_id")
      .select("permissible_id");
    return rows.map((row) => row.permissible_id);
  }
}
