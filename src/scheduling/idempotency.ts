/**
 * Idempotency keys of new bookings, as payment APIs treat them: a retry with the same key and the
 * same body gets the booking the first request made; the same key with another body is a client
 * error (422 IDEMPOTENCY_KEY_REUSED), never a silent answer about some other slot. Requests with
 * one key take turns on a transaction lock, so concurrent retries all find the one booking. The
 * same lock keeps external_ref and idempotency_key unique per account on updates (checkUnique).
 */
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { Appointment } from "../models/scheduling/Appointment";
import { SchedulingError } from "./errors";

/** JSON with object keys sorted, so key order in the request does not matter. */
function canonical(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object" || value instanceof Date) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

/** What identifies a create request's body: a digest of its fields other than the key itself. */
export function fingerprintOf(input: object): string {
  const fields = { ...(input as Record<string, unknown>) };
  delete fields.idempotency_key;
  return createHash("sha256").update(canonical(fields)).digest("hex");
}

/** Serialises the requests of one account that use one value of a unique column until the transaction ends. */
export async function lockUniqueValue(trx: Knex.Transaction, accountId: number, column: string, value: string): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))", [`scheduling_appointments.${column}`, `${accountId}:${value}`]);
}

/**
 * Under the key's lock: the booking made before with this key and this body, if any. A booking
 * made with another body refuses the request. Call inside the transaction that will create the
 * booking when there is none, so a concurrent retry waits for it and then finds it.
 */
export async function replayOf(trx: Knex.Transaction, accountId: number, key: string, fingerprint: string): Promise<Appointment | undefined> {
  await lockUniqueValue(trx, accountId, "idempotency_key", key);
  const known = await Appointment.ofAccount(accountId, trx).findOne({ idempotency_key: key });
  if (!known) return undefined;
  // A key set by an update, not by a create, has no body to compare with.
  if (known.idempotency_fingerprint !== null && known.idempotency_fingerprint !== fingerprint) {
    throw new SchedulingError(422, "IDEMPOTENCY_KEY_REUSED", "idempotency_key was already used with a different request");
  }
  return known;
}

/**
 * external_ref and idempotency_key are unique per account. Bookings claiming the same value take
 * turns (a transaction lock on it), so a racing one sees the winner's row and answers 409 with the
 * duplicate's code rather than whichever constraint the database happens to trip first.
 */
export async function checkUnique(
  trx: Knex.Transaction,
  accountId: number,
  existing: Appointment | undefined,
  column: "external_ref" | "idempotency_key",
  value: string | null,
) {
  if (!value || value === existing?.[column]) return;
  await lockUniqueValue(trx, accountId, column, value);
  const taken = await trx(Appointment.tableName)
    .where({ account_id: accountId, [column]: value })
    .first("id");
  if (!taken) return;
  if (column === "external_ref") throw new SchedulingError(409, "DUPLICATE_EXTERNAL_REF", "external_ref has already been taken");
  throw new SchedulingError(409, "DUPLICATE_IDEMPOTENCY_KEY", "idempotency_key has already been used");
}
