import type { Knex } from "knex";
import { isIn, type Sql, sql } from "../db/sql";
import { Batch } from "../db/batch";
import { BatchReads, type EventConsumer, type EventRow } from "../events/outbox";
import { handOverDeliveries, type HandedDelivery } from "./handOver";
import { type DeliveryTarget, deliveryIdFor, queueTargets, targetsOfEvents } from "./targets";

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
  return Batch.rowsOf<HandedDelivery>(
    db,
    sql`with planned as (${deliveries})
      select planned.*, conversations.display_id as conversation_display_id, events.created_at as event_created_at
      from planned join events on events.id = planned.event_id left join conversations on conversations.id = events.conversation_id
      where planned.workflow_started_at is null order by planned.event_id`,
  );
}

/** Account webhooks, API inbox webhooks and agent bots: plans the deliveries, then hands them to their lanes. */
export function webhookConsumer(): EventConsumer {
  const targetsRead = new BatchReads<Map<number, DeliveryTarget[]>>();
  // What planning answered for each event of the batch in hand, taken by its first hand-over.
  const planned = new WeakMap<EventRow, HandedDelivery[]>();
  return {
    read(batch, events) {
      targetsRead.keep(events, queueTargets(batch, events));
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
