import { Model } from "objection";

export type AuditAction = "create" | "update" | "destroy" | "sign_in" | "sign_out";

export class AuditLog extends Model {
  static tableName = "audit_logs";
  static jsonAttributes = ["audited_changes"];

  id!: number;
  account_id!: number;
  auditable_type!: string;
  auditable_id!: number | null;
  associated_type!: string | null;
  associated_id!: number | null;
  user_id!: number | null;
  user_type!: string | null;
  username!: string | null;
  action!: AuditAction;
  audited_changes!: Record<string, unknown>;
  version!: number;
  comment!: string | null;
  request_uuid!: string | null;
  remote_address!: string | null;
  created_at!: Date;

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
