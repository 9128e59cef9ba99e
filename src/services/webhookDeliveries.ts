import { createHmac } from "node:crypto";
import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import { isIn, type Sql, sql, sqlText } from "../db/sql";
import { Trip } from "../db/trip";
import type { DeliveryConfig } from "../config";
import type { AppDeps } from "../deps";
import { CouldNotProcess } from "../errors";
import { safePost, UnsafeUrlError } from "../lib/safeFetch";
import { WebhookDelivery, type DeliveryTargetType } from "../models/WebhookDelivery";
import { startOnce } from "../temporal/client";
import {
  DELIVER_SIGNAL,
  laneSpanAt,
  LIVE_SIGNAL_MAX,
  webhookDeliveryWorkflowId,
  webhookLaneWorkflowId,
  type DeliveryWorkflowInput,
  type LaneDelivery,
  type LaneInput,
  type RetrySchedule,
} from "../temporal/contracts";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { AccountIdAttribute, ConversationIdAttribute, EventNameAttribute, WebhookIdAttribute } from "../temporal/searchAttributes";
import { BatchReads, type EventConsumer, type EventRow } from "./events";
import { type DeliveryTarget, deliveryIdFor, deliverySecretSql, queueTargets, targetsOfEvents } from "./webhookTargets";

export function scheduleFor(config: DeliveryConfig, type: DeliveryTargetType): RetrySchedule {
  return type === "api_inbox" ? config.apiInbox : config.standard;
}

/**
 * Writes one delivery row per target of each event; planning an event again adds nothing. Answers
 * the events' deliveries not yet handed to a lane, read back in the same statement (a row planned
 * before comes back through a no-op update), so the hand-over needs no read of its own. The rows go
 * as one array per column, so every batch sends the same text, prepared once per connection.
 */
async function planDeliveries(db: Knex, events: EventRow[], targets: Map<number, DeliveryTarget[]>): Promise<HandedDelivery[]> {
  const rows = events.flatMap((event) => (targets.get(event.id) ?? []).map((target) => ({ event, target })));
  if (!rows.length) return [];
  const column = <T>(value: (row: (typeof rows)[number]) => T) => rows.map(value);
  return unhanded(
    db,
    sql`insert into webhook_deliveries (id, account_id, event_id, event_name, target_type, target_id, webhook_id, url)
      select * from unnest(${column(({ event, target }) => deliveryIdFor(event.uid, target))}::uuid[], ${column(({ event }) => event.account_id)}::bigint[],
        ${column(({ event }) => event.id)}::bigint[], ${column(({ target }) => target.eventName)}::text[], ${column(({ target }) => target.type)}::text[],
        ${column(({ target }) => target.id)}::bigint[], ${column(({ target }) => target.webhookId)}::bigint[], ${column(({ target }) => target.url)}::text[])
      on conflict (event_id, target_type, target_id, event_name) do update set event_id = excluded.event_id
      returning *`,
  );
}

/**
 * The rows `deliveries` (a statement answering webhook_deliveries rows) names that are not yet
 * handed to a lane, in event order, with each one's conversation number, which the Temporal UI
 * shows beside it, and when its event's transaction began, which tells a bulk change's events from
 * the others.
 */
function unhanded(db: Knex, deliveries: Sql): Promise<HandedDelivery[]> {
  return Trip.rowsOf<HandedDelivery>(
    db,
    sql`with planned as (${deliveries})
      select planned.*, conversations.display_id as conversation_display_id, events.created_at as event_created_at
      from planned join events on events.id = planned.event_id left join conversations on conversations.id = events.conversation_id
      where planned.workflow_started_at is null order by planned.event_id`,
  );
}

/**
 * The startup warning when outgoing calls may reach private networks (the default outside
 * production), so an operator never runs that way without knowing.
 */
export function privateNetworkNotice(config: Pick<DeliveryConfig, "allowPrivateNetworks">): string | undefined {
  return config.allowPrivateNetworks
    ? "Webhooks and automation calls may reach private and loopback addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS or SAFE_FETCH_ALLOW_PRIVATE_NETWORK is true, or NODE_ENV is not production); set WEBHOOK_ALLOW_PRIVATE_NETWORKS=false to refuse them."
    : undefined;
}

/** Account webhooks, API inbox webhooks and agent bots: plans the deliveries, then hands them to their lanes. */
export function webhookConsumer(): EventConsumer {
  const targetsRead = new BatchReads<Map<number, DeliveryTarget[]>>();
  // What planning answered for each event of the batch in hand, taken by its first hand-over.
  const planned = new WeakMap<EventRow, HandedDelivery[]>();
  return {
    read(trip, events) {
      targetsRead.keep(events, queueTargets(trip, events));
    },
    async plan(db, events) {
      const targets = await targetsRead.of(events, () => targetsOfEvents(db, events));
      const byEvent = new Map<number, HandedDelivery[]>(events.map((event) => [event.id, []]));
      for (const delivery of await planDeliveries(db, events, targets)) byEvent.get(delivery.event_id)?.push(delivery);
      for (const event of events) planned.set(event, byEvent.get(event.id)!);
    },
    async dispatch(deps, events) {
      // A hand-over again (the first one failed part way) reads the rows: some may be handed over already.
      const fresh = events.every((event) => planned.has(event));
      const deliveries = fresh
        ? events.flatMap((event) => planned.get(event)!)
        : await unhanded(
            deps.knex,
            sql`select * from webhook_deliveries where ${isIn(
              "event_id",
              events.map((event) => event.id),
            )}`,
          );
      for (const event of events) planned.delete(event);
      await handOverDeliveries(deps, deliveries, deps.settings.delivery);
    },
  };
}

/** A planned delivery with the number of its event's conversation (null for events of none) and its event's time. */
type HandedDelivery = Pick<WebhookDelivery, "id" | "account_id" | "event_id" | "event_name" | "target_type" | "target_id" | "webhook_id" | "url"> & {
  conversation_display_id: number | null;
  event_created_at: Date;
};

/**
 * One lane's share of a batch as signals: events as they happen first, in signals small enough for
 * the lane to take as live, then a bulk change's (a bulk resolve, an import) as one backlog. A bulk
 * change is a transaction that wrote more than LIVE_SIGNAL_MAX of them: its events share their
 * created_at, the transaction's start. Without this split, events committed during a burst were
 * claimed with the burst's and waited behind it.
 */
export function signalsOf<T extends { event_created_at: Date }>(group: T[]): T[][] {
  const perTransaction = new Map<number, number>();
  for (const delivery of group) perTransaction.set(delivery.event_created_at.getTime(), (perTransaction.get(delivery.event_created_at.getTime()) ?? 0) + 1);
  const isBulk = (delivery: T) => perTransaction.get(delivery.event_created_at.getTime())! > LIVE_SIGNAL_MAX;
  const live = group.filter((delivery) => !isBulk(delivery));
  const bulk = group.filter(isBulk);
  const signals: T[][] = [];
  for (let i = 0; i < live.length; i += LIVE_SIGNAL_MAX) signals.push(live.slice(i, i + LIVE_SIGNAL_MAX));
  if (bulk.length) signals.push(bulk);
  return signals;
}

/**
 * Hands planned deliveries to their targets' lanes for the current span: per target, one signal for
 * each LIVE_SIGNAL_MAX events as they happen and one for a bulk change's, however many events the
 * batch holds (signalsOf; the lane starts if it is not running). A relay that
 * repeats a hand-over after a crash sends nothing twice: the lane drops ids it has seen, and an
 * attempt skips a delivery already delivered (the repeat may reach the next span's lane).
 */
export async function handOverDeliveries(deps: AppDeps, deliveries: HandedDelivery[], config: DeliveryConfig): Promise<void> {
  if (!deliveries.length) return;
  const lanes = new Map<string, HandedDelivery[]>();
  for (const delivery of deliveries) {
    const key = `${delivery.target_type}:${delivery.target_id}`;
    const group = lanes.get(key);
    if (group) group.push(delivery);
    else lanes.set(key, [delivery]);
  }
  await inParallel([...lanes.values()], DISPATCH_CONCURRENCY, async (group) => {
    const first = group[0]!;
    const target = `${first.url} (${first.target_type.replace("_", " ")} ${first.target_id}, account ${first.account_id})`;
    const span = laneSpanAt(Date.now(), config.laneSpanMs);
    const input: LaneInput = {
      installationId: deps.temporal.installationId,
      accountId: first.account_id,
      ...(first.webhook_id ? { webhookId: first.webhook_id } : {}),
      target,
      schedule: scheduleFor(config, first.target_type),
      timeoutMs: config.timeoutMs,
      spanEnd: span.end,
    };
    for (const signal of signalsOf(group)) {
      const handed: LaneDelivery[] = signal.map((d) => ({
        id: d.id,
        eventName: d.event_name,
        ...(d.conversation_display_id !== null ? { conversationId: d.conversation_display_id } : {}),
      }));
      await deps.temporal.client.workflow.signalWithStart("webhookLaneWorkflow", {
        workflowId: webhookLaneWorkflowId(deps.temporal.installationId, first.target_type, first.target_id, span.start),
        taskQueue: deps.temporal.taskQueue,
        args: [input],
        signal: DELIVER_SIGNAL,
        signalArgs: [handed],
        memo: { installation: deps.temporal.installationId, work: `deliveries to ${first.target_type} ${first.target_id}` },
        typedSearchAttributes: [
          { key: AccountIdAttribute, value: first.account_id },
          ...(first.webhook_id ? [{ key: WebhookIdAttribute, value: first.webhook_id }] : []),
        ],
        staticSummary: `Deliveries to ${target}`,
      });
    }
    await Trip.rowsOf(
      deps.knex,
      sql`update webhook_deliveries set workflow_started_at = now() where ${isIn(
        "id",
        group.map((d) => d.id),
      )} and workflow_started_at is null`,
    );
  });
}

/** Starts a redelivery's own workflow (operator action), under an id of its own. */
async function startRedelivery(deps: AppDeps, delivery: WebhookDelivery, config: DeliveryConfig, redelivery: number): Promise<void> {
  const event = await deps.knex("events").where("id", delivery.event_id).first("conversation_id");
  const conversation = event?.conversation_id ? await deps.knex("conversations").where("id", event.conversation_id).first("display_id") : undefined;
  const input: DeliveryWorkflowInput = { deliveryId: delivery.id, schedule: scheduleFor(config, delivery.target_type), timeoutMs: config.timeoutMs };
  await startOnce(deps, "webhookDeliveryWorkflow", {
    workflowId: webhookDeliveryWorkflowId(deps.temporal.installationId, delivery.id, redelivery),
    work: `delivery ${delivery.id}${redelivery ? ` redelivery ${redelivery}` : ""}`,
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: AccountIdAttribute, value: delivery.account_id },
      { key: EventNameAttribute, value: delivery.event_name },
      ...(delivery.webhook_id ? [{ key: WebhookIdAttribute, value: delivery.webhook_id }] : []),
      ...(conversation ? [{ key: ConversationIdAttribute, value: conversation.display_id as number }] : []),
    ],
    staticSummary: `${delivery.event_name} → ${delivery.url} (${delivery.target_type.replace("_", " ")} ${delivery.target_id}, account ${delivery.account_id}${conversation ? `, conversation #${conversation.display_id}` : ""})`,
  });
}

/** Sends the delivery again from scratch (operator action); refused while an attempt is still running. */
export async function redeliver(deps: AppDeps, delivery: WebhookDelivery): Promise<WebhookDelivery> {
  // Conditional, so two operators clicking at once start one redelivery, not two.
  const [reset] = await WebhookDelivery.query(deps.knex)
    .patch({ status: "pending", last_error: null, updated_at: new Date() })
    .where("id", delivery.id)
    .whereNot("status", "pending")
    .returning("*");
  if (!reset) throw CouldNotProcess("Delivery is still in progress");
  try {
    await startRedelivery(deps, reset, deps.settings.delivery, Date.now());
  } catch (err) {
    // Not started: put the row back, or it would stay pending and refuse every later redelivery.
    await WebhookDelivery.query(deps.knex).patch({ status: delivery.status, last_error: delivery.last_error }).where("id", delivery.id);
    throw err;
  }
  return reset;
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

/** What an attempt writes on its row. */
interface AttemptRecord {
  id: string;
  delivered: boolean;
  last_response_code: number | null;
  last_error: string | null;
}

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
  const rows = await Trip.rowsOf<LoadedDelivery>(
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
  if (records.length) {
    // The ids again: PostgreSQL estimates a recordset at a hundred rows and, without them, joins it to
    // every delivery by a sequential scan.
    await Trip.rowsOf(
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
  return outcomes;
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
