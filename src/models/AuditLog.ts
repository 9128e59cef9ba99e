import { Model } from "objection";

export type AuditAction = "create" | "update" | "destroy" | "sign_in" | "sign_out";

export class AuditLog extends Model {
  static tableName = "audit_logs";
  static jsonAttributes = ["audited_changes"];

  declare id: number;
  declare account_id: number;
  declare auditable_type: string;
  declare auditable_id: number | null;
  declare associated_type: string | null;
  declare associated_id: number | null;
  declare user_id: number | null;
  declare user_type: string | null;
  declare username: string | null;
  declare action: AuditAction;
  declare audited_changes: Record<string, unknown>;
  declare version: number;
  declare comment: string | null;
  declare request_uuid: string | null;
  declare remote_address: string | null;
  declare created_at: Date;

  /** One page of the account's entries, newest first, with the total. */
  static async pageOf(accountId: number, page: number, perPage: number): Promise<{ entries: AuditLog[]; total: number }> {
    const query = AuditLog.query().where("account_id", accountId);
    const total = await query.clone().resultSize();
    const entries = await query
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(perPage)
      .offset((page - 1) * perPage);
    return { entries, total };
  }
}
