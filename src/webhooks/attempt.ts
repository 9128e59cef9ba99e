import { createHmac } from "node:crypto";
import type { Knex } from "knex";
import type { DeliveryConfig } from "../config";
import { isIn, sql, sqlText } from "../db/sql";
import { Batch } from "../db/batch";
import { inParallel } from "../lib/inParallel";
import { safePost, UnsafeUrlError } from "../lib/safeFetch";
import type { WebhookDelivery } from "../models/WebhookDelivery";
import { type AttemptRecord, recordAttempts } from "./results";
import { deliverySecretSql } from "./targets";

/**
 * The startup warning when outgoing calls may reach private networks (the default outside
 * production), so an operator never runs that way without knowing.
 */
export function privateNetworkNotice(config: Pick<DeliveryConfig, "allowPrivateNetworks">): string | undefined {
  return config.allowPrivateNetworks
    ? "Webhooks and automation calls may reach private and loopback addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS or SAFE_FETCH_ALLOW_PRIVATE_NETWORK is true, or NODE_ENV is not production); set WEBHOOK_ALLOW_PRIVATE_NETWORKS=false to refuse them."
    : undefined;
}

function sign(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** A 4xx means the receiver will not take it, except 408 and 429 which ask us to come back. */
function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429 || status < 400;
}

/** How an attempt ended; a failure is permanent when the receiver refused for good or the URL is unsafe. */
export type AttemptOutcome = { ok: true; status: number } | { ok: false; reason: string; permanent: boolean };

type LoadedDelivery = WebhookDelivery & { payload: Record<string, unknown>; secret: string | null };

/** POSTs one delivery's event payload, signed; answers the outcome and what to record. */
async function post(
  delivery: LoadedDelivery,
  config: Pick<DeliveryConfig, "allowPrivateNetworks">,
  timeoutMs: number,
): Promise<[AttemptOutcome, AttemptRecord]> {
  const body = JSON.stringify({ ...delivery.payload, event: delivery.event_name });
  const timestamp = String(Math.floor(Date.now() / 1000));
  try {
    const response = await safePost(delivery.url, {
      timeoutMs,
      allowPrivateNetworks: config.allowPrivateNetworks,
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "User-Agent": "convo-sched-webhooks",
        "X-Chatwoot-Delivery": delivery.id,
        ...(delivery.secret ? { "X-Chatwoot-Timestamp": timestamp, "X-Chatwoot-Signature": sign(delivery.secret, timestamp, body) } : {}),
      },
      body,
    });
    if (response.status >= 200 && response.status < 300) {
      return [
        { ok: true, status: response.status },
        { id: delivery.id, delivered: true, last_response_code: response.status, last_error: null },
      ];
    }
    const error = `${response.status} ${response.statusText}`.trim();
    return [
      { ok: false, reason: error, permanent: !retryable(response.status) },
      { id: delivery.id, delivered: false, last_response_code: response.status, last_error: error },
    ];
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return [
      { ok: false, reason: message, permanent: err instanceof UnsafeUrlError },
      { id: delivery.id, delivered: false, last_response_code: null, last_error: message },
    ];
  }
}

/**
 * Attempts deliveries (at most `parallel` POSTs at once) and records each outcome on its row. The
 * rows, their payloads and secrets are read in one statement and the outcomes written in one, so a
 * lane's round of many deliveries costs two statements. A delivered row is not sent again; a row
 * that is gone is a permanent failure.
 */
export async function attemptDeliveries(
  db: Knex,
  config: Pick<DeliveryConfig, "allowPrivateNetworks">,
  ids: readonly string[],
  { timeoutMs, parallel = ids.length }: { timeoutMs: number; parallel?: number },
): Promise<Map<string, AttemptOutcome>> {
  const rows = await Batch.rowsOf<LoadedDelivery>(
    db,
    sql`select d.*, e.payload, ${sqlText(deliverySecretSql("d"))} as secret from webhook_deliveries d join events e on e.id = d.event_id where ${isIn("d.id", ids)}`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const outcomes = new Map<string, AttemptOutcome>();
  const records: AttemptRecord[] = [];
  await inParallel(ids, Math.max(1, parallel), async (id) => {
    const delivery = byId.get(id);
    if (!delivery) outcomes.set(id, { ok: false, reason: `Delivery ${id} no longer exists`, permanent: true });
    else if (delivery.status === "delivered") outcomes.set(id, { ok: true, status: delivery.last_response_code ?? 200 });
    else {
      const [outcome, record] = await post(delivery, config, timeoutMs);
      outcomes.set(id, outcome);
      records.push(record);
    }
  });
  await recordAttempts(db, records);
  return outcomes;
}
