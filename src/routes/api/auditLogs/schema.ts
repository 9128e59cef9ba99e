import { z } from "zod";

const auditLogEntry = z.object({
  id: z.number(),
  auditable_id: z.number().nullable(),
  auditable_type: z.string(),
  auditable: z.record(z.string(), z.unknown()).nullable(),
  associated_id: z.number().nullable(),
  associated_type: z.string().nullable(),
  user_id: z.number().nullable(),
  user_type: z.string().nullable(),
  username: z.string().nullable(),
  action: z.enum(["create", "update", "destroy", "sign_in", "sign_out"]),
  audited_changes: z.record(z.string(), z.unknown()),
  version: z.number(),
  comment: z.string().nullable(),
  request_uuid: z.string().nullable(),
  created_at: z.number(),
  remote_address: z.string().nullable(),
});

export const auditLogsResponse = z
  .object({ per_page: z.number(), total_entries: z.number(), current_page: z.number(), audit_logs: z.array(auditLogEntry) })
  .openapi("AuditLogs");
