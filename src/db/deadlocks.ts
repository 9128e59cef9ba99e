import type { Knex } from "knex";

/** pg's error code when PostgreSQL broke a deadlock by aborting this transaction. */
const DEADLOCK_DETECTED = "40P01";
const ATTEMPTS = 5;

function isDeadlock(err: unknown): boolean {
  // Objection wraps driver errors and keeps pg's own in nativeError.
  const driverError = (err as { nativeError?: unknown }).nativeError ?? err;
  return (driverError as { code?: unknown })?.code === DEADLOCK_DETECTED;
}

/**
 * A transaction run again when PostgreSQL aborts it to break a deadlock, as PostgreSQL advises: rows
 * racing for an exclusion constraint (bookings of one slot) can each wait on the other's. The next
 * attempt runs from the start and sees what the winner committed.
 */
export async function transactionRetryingDeadlocks<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      if (attempt >= ATTEMPTS || !isDeadlock(err)) throw err;
    }
  }
}
