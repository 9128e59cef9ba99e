import type { Knex } from "knex";

/** The claim in one order, as 20261126000201 has it, leaving parked events out. */
function claimIn(order: "ASC" | "DESC"): string {
  return `UPDATE events SET claimed_until = now() + make_interval(secs => lease_seconds)
    WHERE id IN (
      SELECT id FROM events
      WHERE dispatched_at IS NULL
        AND parked_at IS NULL
        AND (dispatch_after IS NULL OR dispatch_after <= now())
        AND (claimed_until IS NULL OR claimed_until < now())
      ORDER BY id ${order}
      LIMIT batch_size
      FOR UPDATE SKIP LOCKED)
    RETURNING *`;
}

function claimFunction(claim: (order: "ASC" | "DESC") => string): string {
  return `
    CREATE OR REPLACE FUNCTION claim_due_events(lease_seconds double precision, batch_size integer, newest boolean) RETURNS SETOF events
    LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
    BEGIN
      IF newest THEN
        RETURN QUERY ${claim("DESC")};
      ELSE
        RETURN QUERY ${claim("ASC")};
      END IF;
    END $$`;
}

/**
 * An event the relay keeps failing to hand over while Temporal answers (its payload is too large,
 * say) is parked: set aside with its error until an operator re-drives it (src/cli/redriveEvents.ts),
 * so it neither costs every sweep a hand-over nor counts as the outbox falling behind.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    t.timestamp("parked_at", { useTz: true });
  });
  await knex.raw("CREATE INDEX events_parked ON events (id) WHERE parked_at IS NOT NULL AND dispatched_at IS NULL");
  await knex.raw(claimFunction(claimIn));
}

export async function down(knex: Knex): Promise<void> {
  const withoutParking = (order: "ASC" | "DESC") => claimIn(order).replace("AND parked_at IS NULL", "");
  await knex.raw("DROP FUNCTION IF EXISTS claim_due_events(double precision, integer, boolean)");
  await knex.schema.alterTable("events", (t) => {
    t.dropColumn("parked_at");
  });
  await knex.raw(claimFunction(withoutParking));
}
