import type { Knex } from "knex";
import { BaseModel } from "./BaseModel";

export type AccountStatus = "active" | "suspended";

export interface AccountSettings {
  auto_resolve_after?: number | null;
  auto_resolve_message?: string | null;
  auto_resolve_ignore_waiting?: boolean | null;
  auto_resolve_label?: string | null;
  [key: string]: unknown;
}

export class Account extends BaseModel {
  static tableName = "accounts";
  static jsonAttributes = ["settings", "custom_attributes", "limits"];

  declare name: string;
  declare locale: string;
  declare domain: string | null;
  declare support_email: string | null;
  declare status: AccountStatus;
  declare features: string[];
  declare settings: AccountSettings;
  declare custom_attributes: Record<string, unknown>;
  declare limits: Record<string, unknown>;
  declare deletion_requested_at: Date | null;

  /** Accounts whose deletion was requested are gone as far as the API is concerned. */
  static live(trx?: Knex) {
    return Account.query(trx).whereNull("deletion_requested_at");
  }

  static async findLive(id: number, trx?: Knex): Promise<Account | undefined> {
    return Account.live(trx).findById(id);
  }
}
