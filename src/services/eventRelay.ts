import type { Knex } from "knex";
import pg from "pg";
import type { AppDeps } from "../deps";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { WebhookDelivery } from "../models/WebhookDelivery";
import { automationConsumer } from "./automation/trigger";
import { timerConsumer } from "./conversationTimers";
import { EVENTS_CHANNEL } from "./events";
import { loadDeliveryConfig, planDeliveries, startDeliveryWorkflow, type DeliveryConfig } from "./webhookDeliveries";
import type { EventRow } from "./webhookTargets";

/**
 * Something that acts on committed events: it may plan rows in the claim transaction, then hands a
 * whole batch to Temporal (so it can run calls side by side and skip repeats within the batch).
 */
export interface EventConsumer {
  plan?(trx: Knex.Transaction, event: EventRow): Promise<void>;
  dispatch(deps: AppDeps, events: EventRow[]): Promise<void>;
}

const MAX_DISPATCH_BACKOFF_MS = 60_000;
const OUTAGE_AFTER_FAILURES = 3;


export interface RelayOptions {
  /** The sweep that recovers events a crash left behind, and the fallback if a notification is missed. */
  sweepIntervalMs?: number;
  batchSize?: number;
  consumers?: EventConsumer[];
}

/** Account webhooks, API inbox webhooks and agent bots. */
export function webhookConsumer(config: DeliveryConfig = loadDeliveryConfig()): EventConsumer {
  return {
    plan: (trx, event) => planDeliveries(trx, event),
    async dispatch(deps, events) {
      const deliveries = await WebhookDelivery.query(deps.knex)
        .whereIn("event_id", events.map((event) => event.id))
        .whereNull("workflow_started_at")
        .orderBy("event_id");
      await inParallel(deliveries, DISPATCH_CONCURRENCY, (delivery) => startDeliveryWorkflow(deps, delivery, config));
    },
  };
}

/**
 * Hands committed events to Temporal. Woken by NOTIFY right after a commit (low latency) and by a
 * periodic sweep (recovery). An event is marked dispatched only after every consumer has handed it
 * over under deterministic workflow ids, so a crash at any point means a retry, never a loss, and the
 * retry is absorbed by "already started".
 */
export class EventRelay {
  private listener?: pg.Client;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly consumers: EventConsumer[];

  constructor(
    private readonly deps: AppDeps,
    private readonly options: RelayOptions = {},
  ) {
    this.consumers = options.consumers ?? [webhookConsumer(), timerConsumer(), automationConsumer()];
  }

  async start(): Promise<void> {
    const settings = (this.deps.knex.client as { connectionSettings: pg.ClientConfig | string }).connectionSettings;
    this.listener = new pg.Client(settings);
    this.listener.on("error", (err) => console.error("Event relay listener error:", err.message));
    await this.listener.connect();
    this.listener.on("notification", () => this.wake());
    await this.listener.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.timer = setInterval(() => this.wake(), this.options.sweepIntervalMs ?? 5000);
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.listener?.end().catch(() => undefined);
  }

  /** Runs one drain at a time; a wake-up during a drain runs another right after it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined)
      .catch((err) => console.error("Event relay failed; the sweep will retry:", err))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Dispatches every due event, oldest first, in batches. A batch that fails is retried event by
   * event: those that go through are marked, the others are postponed with backoff. When the first
   * few all fail (Temporal is down, say) the drain stops and the sweep tries again.
   */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const events = await this.claimBatch();
      if (!events.length) return total;
      try {
        await this.dispatch(events);
        total += events.length;
      } catch (batchError) {
        let dispatched = 0;
        let failed = 0;
        for (const event of events) {
          try {
            await this.dispatch([event]);
            dispatched++;
          } catch (err) {
            await this.postpone(this.deps.knex, event, err);
            // Nothing but failures looks like an outage: leave the rest for the sweep rather than
            // wait out a timeout per event.
            if (++failed >= OUTAGE_AFTER_FAILURES && !dispatched) throw batchError;
          }
        }
        if (!dispatched) throw batchError;
        total += dispatched;
      }
    }
  }

  private async dispatch(events: EventRow[]): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.dispatch(this.deps, events)));
    await this.deps.knex("events").whereIn("id", events.map((e) => e.id)).update({ dispatched_at: new Date() });
  }

  /** 1 s, 2 s, 4 s ... up to a minute: soon enough after an outage, rare enough for a bad event. */
  private async postpone(db: Knex, event: EventRow, err: unknown): Promise<void> {
    const attempts = (event.dispatch_attempts ?? 0) + 1;
    const delayMs = Math.min(1000 * 2 ** (attempts - 1), MAX_DISPATCH_BACKOFF_MS);
    console.error(`Event ${event.id} (${event.name}) could not be dispatched (attempt ${attempts}); retrying in ${delayMs} ms:`, err);
    await db("events")
      .where("id", event.id)
      .update({ dispatch_attempts: attempts, dispatch_after: new Date(Date.now() + delayMs), last_dispatch_error: err instanceof Error ? err.message : String(err) });
  }

  /**
   * Locks a batch of due events so concurrent relays split the work, and lets consumers plan in that
   * transaction; an event whose planning fails is rolled back to its savepoint and postponed alone.
   */
  private async claimBatch(): Promise<EventRow[]> {
    return this.deps.knex.transaction(async (trx) => {
      const events: EventRow[] = await trx("events")
        .whereNull("dispatched_at")
        .where((due) => due.whereNull("dispatch_after").orWhere("dispatch_after", "<=", trx.fn.now()))
        .orderBy("id")
        .limit(this.options.batchSize ?? 100)
        .forUpdate()
        .skipLocked();
      const planned: EventRow[] = [];
      for (const event of events) {
        try {
          await trx.transaction(async (savepoint) => {
            for (const consumer of this.consumers) await consumer.plan?.(savepoint, event);
          });
          planned.push(event);
        } catch (err) {
          await this.postpone(trx, event, err);
        }
      }
      return planned;
    });
  }
}
