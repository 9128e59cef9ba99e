import { BaseModel } from "./BaseModel";

/** Chatwoot's integer enums: the index is the stored code. */
export const HOOK_STATUSES = ["disabled", "enabled"] as const;
export const HOOK_TYPES = ["account", "inbox"] as const;

/** An account's configuration of an integration app (Chatwoot's Integrations::Hook). */
export class IntegrationHook extends BaseModel {
  static tableName = "integrations_hooks";
  static jsonAttributes = ["settings"];

  declare account_id: number;
  declare app_id: string;
  declare inbox_id: number | null;
  declare status: number;
  declare hook_type: number;
  declare settings: Record<string, unknown>;

  get enabled(): boolean {
    return HOOK_STATUSES[this.status] === "enabled";
  }
}
