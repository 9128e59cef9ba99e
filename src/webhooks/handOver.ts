import type { DeliveryConfig } from "../config";
import { Batch } from "../db/batch";
import { isIn, sql } from "../db/sql";
import type { AppDeps } from "../deps";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import type { DeliveryTargetType, WebhookDelivery } from "../models/WebhookDelivery";
import {
  DELIVER_SIGNAL,
  laneSpanAt,
  LIVE_SIGNAL_MAX,
  webhookLaneWorkflowId,
  type LaneDelivery,
  type LaneInput,
  type RetrySchedule,
} from "../temporal/contracts";
import { AccountIdAttribute, WebhookIdAttribute } from "../temporal/searchAttributes";

export function scheduleFor(config: DeliveryConfig, type: DeliveryTargetType): RetrySchedule {
  return type === "api_inbox" ? config.apiInbox : config.standard;
}

/** A planned delivery with the number of its event's conversation (null for events of none) and its event's time. */
export type HandedDelivery = Pick<WebhookDelivery, "id" | "account_id" | "event_id" | "event_name" | "target_type" | "target_id" | "webhook_id" | "url"> & {
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
    await Batch.rowsOf(
      deps.knex,
      sql`update webhook_deliveries set workflow_started_at = now() where ${isIn(
        "id",
        group.map((d) => d.id),
      )} and workflow_started_at is null`,
    );
  });
}
