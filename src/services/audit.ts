import type { Knex } from "knex";
import type { AppContext } from "../http/context";
import { jsonEqual } from "../lib/jsonEqual";
import type { AuditAction } from "../models/AuditLog";

/** Who did it and from where, as the audited gem records it. */
export interface AuditActor {
  userId: number | null;
  userType: string | null;
  username: string | null;
  remoteAddress: string | null;
  requestUuid: string;
}

export function auditActor(ctx: AppContext): AuditActor {
  const principal = ctx.state.principal;
  const user = principal?.kind === "user" ? principal.user : undefined;
  return {
    userId: user?.id ?? null,
    userType: user ? "User" : null,
    username: user?.email ?? null,
    remoteAddress: ctx.ip || null,
    requestUuid: ctx.requestId,
  };
}

export interface AuditEntry {
  accountId: number;
  auditableType: string;
  auditableId: number;
  action: AuditAction;
  /** `{attr: value}` for create and destroy, `{attr: [old, new]}` for update. */
  changes: Record<string, unknown>;
  associatedType?: string;
  associatedId?: number;
}

/** Writes an audit log row; pass the transaction of the audited change so both commit together. */
export async function recordAudit(db: Knex, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const previous = await db("audit_logs")
    .where({ auditable_type: entry.auditableType, auditable_id: entry.auditableId })
    .max<{ max: number | null }>("version as max")
    .first();
  await db("audit_logs").insert({
    account_id: entry.accountId,
    auditable_type: entry.auditableType,
    auditable_id: entry.auditableId,
    associated_type: entry.associatedType ?? null,
    associated_id: entry.associatedId ?? null,
    user_id: actor.userId,
    user_type: actor.userType,
    username: actor.username,
    action: entry.action,
    audited_changes: JSON.stringify(entry.changes),
    version: (previous?.max ?? 0) + 1,
    request_uuid: actor.requestUuid,
    remote_address: actor.remoteAddress,
  });
}

/** The attributes of a record worth auditing, for create and destroy. */
export function snapshot<T extends object>(record: T, keys: readonly (keyof T & string)[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, normalise(record[key])]));
}

/** `{attr: [old, new]}` for the keys whose value changed; empty when nothing did. */
export function diff<T extends object>(before: T, after: T, keys: readonly (keyof T & string)[]): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of keys) {
    const [old, now] = [normalise(before[key]), normalise(after[key])];
    if (!jsonEqual(old, now)) changes[key] = [old, now];
  }
  return changes;
}

function normalise(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

export interface RecordChange<T extends { id: number }> {
  accountId: number;
  auditableType: string;
  /** The attributes audited for this type (the audited gem's `only`/`except`). */
  keys: readonly (keyof T & string)[];
  /** Absent for a create. */
  before?: T;
  /** Absent for a destroy. */
  after?: T;
  /** The record the entry is associated with (the audited gem's associated_with), e.g. the account. */
  associated?: { type: string; id: number };
}

/**
 * Audits one record's create (no before), destroy (no after) or update, as the audited gem would:
 * an update that touched none of the audited attributes leaves no row.
 */
export async function auditChange<T extends { id: number }>(db: Knex, actor: AuditActor, change: RecordChange<T>): Promise<void> {
  const { before, after, keys } = change;
  const record = (after ?? before)!;
  const [action, changes]: [AuditAction, Record<string, unknown>] = !before
    ? ["create", snapshot(after!, keys)]
    : !after
      ? ["destroy", snapshot(before, keys)]
      : ["update", diff(before, after, keys)];
  if (action === "update" && Object.keys(changes).length === 0) return;
  await recordAudit(db, actor, {
    accountId: change.accountId,
    auditableType: change.auditableType,
    auditableId: record.id,
    action,
    changes,
    associatedType: change.associated?.type,
    associatedId: change.associated?.id,
  });
}
