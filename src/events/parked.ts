import type { Knex } from "knex";
import { EVENTS_CHANNEL } from "./outbox";

/**
 * Parked events: those the relay gave up handing over after bounded retries while Temporal answered
 * (relay.ts). They wait, with their error, for an operator to re-drive them once the cause is
 * fixed (`npm run events:redrive`, docs/operations.md); nothing else waits for them.
 */

export interface ParkedState {
  count: number;
  /** Seconds since the oldest parked event was committed; 0 when none is parked. */
  oldestAgeSeconds: number;
  /** The oldest parked event and why its last hand-over failed. */
  oldest: { id: number; account_id: number; name: string; error: string | null } | null;
}

/** Room enough for a Temporal or database error, not for a payload echoed back in one. */
const ERROR_SHOWN_CHARS = 500;

export async function parkedState(db: Knex): Promise<ParkedState> {
  const { rows } = await db.raw<{
    rows: { count: number; id: number | null; account_id: number | null; name: string | null; error: string | null; age: string | null }[];
  }>(
    `SELECT (SELECT count(*)::int FROM events WHERE parked_at IS NOT NULL AND dispatched_at IS NULL) AS count,
            oldest.id, oldest.account_id, oldest.name, left(oldest.last_dispatch_error, ${ERROR_SHOWN_CHARS}) AS error,
            extract(epoch FROM now() - oldest.created_at) AS age
     FROM (SELECT 1) AS one
     LEFT JOIN LATERAL (SELECT * FROM events WHERE parked_at IS NOT NULL AND dispatched_at IS NULL ORDER BY id LIMIT 1) AS oldest ON true`,
  );
  const row = rows[0]!;
  return {
    count: row.count,
    oldestAgeSeconds: Number(row.age ?? 0),
    oldest: row.id === null ? null : { id: row.id, account_id: row.account_id!, name: row.name!, error: row.error },
  };
}

export interface RedriveFilter {
  /** Only these events (else every parked event of the filter). */
  ids?: number[];
  accountId?: number;
}

/**
 * Puts parked events back in the relay's queue with a fresh retry budget and wakes the relay (the
 * NOTIFY goes out at commit); answers their ids. An event that still cannot be handed over parks again.
 */
export async function redriveParkedEvents(db: Knex, filter: RedriveFilter = {}): Promise<number[]> {
  return db.transaction(async (trx) => {
    const query = trx("events").whereNotNull("parked_at").whereNull("dispatched_at");
    if (filter.ids) query.whereIn("id", filter.ids);
    if (filter.accountId !== undefined) query.where("account_id", filter.accountId);
    const rows: { id: number }[] = await query.update({ parked_at: null, dispatch_attempts: 0, dispatch_after: null, claimed_until: null }, ["id"]);
    if (rows.length) await trx.raw("select pg_notify(?, '')", [EVENTS_CHANNEL]);
    return rows.map((row) => row.id).sort((a, b) => a - b);
  });
}
