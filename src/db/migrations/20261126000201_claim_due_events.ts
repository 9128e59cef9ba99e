import type { Knex } from "knex";

/** The claim in one order: the oldest due events first, or the newest (a drain beside a backlog). */
function claimIn(order: "ASC" | "DESC"): string {
  return `UPDATE events SET claimed_until = now() + make_interval(secs => lease_seconds)
    WHERE id IN (
      SELECT id FROM events
      WHERE dispatched_at IS NULL
        AND (dispatch_after IS NULL OR dispatch_after <= now())
        AND (claimed_until IS NULL OR claimed_until < now())
      ORDER BY id ${order}
      LIMIT batch_size
      FOR UPDATE SKIP LOCKED)
    RETURNING *`;
}

/**
 * The relay's claim (eventRelay.ts) as a function that plans it without bitmap scans. An event
 * leaves the undispatched index only when a vacuum passes, and PostgreSQL's bitmap scan, which it
 * picked for the claim, visits every such entry's row on every claim, so under a steady stream of
 * events each claim grew costly, and a backlog was sorted whole for each batch of a hundred.
 * An index scan takes the first due ids in order and marks the dead entries it passes, so the next
 * claim skips them. The setting holds only while the function runs.
 */
export async function up(knex: Knex): Promise<void> {
  // Two statements rather than one ordered by an expression, which no index would serve.
  await knex.raw(`
    CREATE FUNCTION claim_due_events(lease_seconds double precision, batch_size integer, newest boolean) RETURNS SETOF events
    LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
    BEGIN
      IF newest THEN
        RETURN QUERY ${claimIn("DESC")};
      ELSE
        RETURN QUERY ${claimIn("ASC")};
      END IF;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP FUNCTION IF EXISTS claim_due_events(double precision, integer, boolean)");
}
