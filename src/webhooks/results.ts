import type { Knex } from "knex";
import { isIn, sql } from "../db/sql";
import { Batch } from "../db/batch";
import { WebhookDelivery } from "../models/WebhookDelivery";

/** What an attempt writes on its row. */
export interface AttemptRecord {
  id: string;
  delivered: boolean;
  last_response_code: number | null;
  last_error: string | null;
}

/** Writes attempts' outcomes on their rows in one statement: delivered, or the error and one more attempt. */
export async function recordAttempts(db: Knex, records: AttemptRecord[]): Promise<void> {
  if (!records.length) return;
  // The ids again: PostgreSQL estimates a recordset at a hundred rows and, without them, joins it to
  // every delivery by a sequential scan.
  await Batch.rowsOf(
    db,
    sql`UPDATE webhook_deliveries d
     SET status = CASE WHEN v.delivered THEN 'delivered' ELSE d.status END,
         delivered_at = CASE WHEN v.delivered THEN now() ELSE d.delivered_at END,
         last_response_code = v.last_response_code, last_error = v.last_error,
         attempts = d.attempts + 1, last_attempt_at = now(), updated_at = now()
     FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS v(id uuid, delivered boolean, last_response_code integer, last_error text)
     WHERE d.id = v.id AND ${isIn(
       "d.id",
       records.map((record) => record.id),
     )}`,
  );
}

/** Retries are exhausted (or the failure is permanent): the delivery is failed for good. */
export async function markDeliveryFailed(db: Knex, deliveryId: string): Promise<WebhookDelivery | undefined> {
  const [delivery] = await WebhookDelivery.query(db)
    .patch({ status: "failed", updated_at: new Date() })
    .where("id", deliveryId)
    .where("status", "pending")
    .returning("*");
  return delivery;
}
