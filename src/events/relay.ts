import type { Knex } from "knex";
import { isIn, sql } from "../db/sql";
import { Batch } from "../db/batch";
import type { AppDeps } from "../deps";
import { EVENTS_CHANNEL, type EventConsumer, type EventRow } from "./outbox";
import { logger } from "../lib/logger";
import { listenerSettings, PgListener } from "../lib/pgListener";
import { relayEventsParked, relayHandOverFailures } from "../lib/metrics";
import { temporalIsReachable } from "../temporal/client";

const log = logger.child({ component: "event_relay" });

/**
 * The application_name of the relay's LISTEN connection: /health finds a live relay by it in
 * pg_stat_activity, among the other connections (the auth cache LISTENs too).
 */
export const RELAY_APPLICATION_NAME = "convo-sched event relay";

/** Counts every relay's listening connection on this database, whichever process it runs in. */
export async function listeningRelays(knex: Knex): Promise<number> {
  const { rows } = await knex.raw<{ rows: { count: number }[] }>(
    "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?",
    [RELAY_APPLICATION_NAME],
  );
  return rows[0]!.count;
}

const MAX_DISPATCH_BACKOFF_MS = 60_000;
const OUTAGE_AFTER_FAILURES = 3;
/** Failed hand-overs after which an event is parked, if Temporal answers meanwhile (1+2+4+8 s of backoff). */
export const PARK_AFTER_ATTEMPTS = 5;
/** How long the relay waits for Temporal to answer before parking an event; silence counts as an outage. */
const PARK_PROBE_DEADLINE_MS = 3000;
/**
 * How long a claimed batch is the claimer's alone. A relay that dies mid-batch leaves its claim to
 * expire, and another relay takes the events then; hand-overs are idempotent, so a slow relay whose
 * claim ran out repeats work but never loses or doubles a delivery.
 */
const CLAIM_SECONDS = 120;

export interface RelayOptions {
  /** The sweep that recovers events a crash left behind, and the fallback if a notification is missed. */
  sweepIntervalMs?: number;
  batchSize?: number;
  consumers: EventConsumer[];
  /** Failed hand-overs before an event is parked (PARK_AFTER_ATTEMPTS by default). */
  parkAfterAttempts?: number;
  /** The lease of a claimed batch (CLAIM_SECONDS by default): how long a killed relay's batch waits for another. */
  claimSeconds?: number;
}

type Order = "oldest" | "newest";

/**
 * Hands committed events to Temporal. Woken by NOTIFY right after a commit (low latency) and by a
 * periodic sweep (recovery). While the drain from the oldest due event is busy, one from the newest
 * runs beside it, so an event committed during a burst goes out at once instead of after the whole
 * backlog. A batch is claimed with a lease, so concurrent relays (and the two drains) split the work;
 * an event is marked dispatched only after every consumer has handed it over under deterministic
 * workflow ids, so a crash at any point means a retry, never a loss, and the retry is absorbed.
 */
export class EventRelay {
  private listener?: PgListener;
  private timer?: NodeJS.Timeout;
  private readonly drains = new Map<Order, { running?: Promise<void>; again: boolean }>([
    ["oldest", { again: false }],
    ["newest", { again: false }],
  ]);
  private stopped = false;
  private readonly batchSize: number;

  constructor(
    private readonly deps: AppDeps,
    private readonly options: RelayOptions,
  ) {
    this.batchSize = options.batchSize ?? 200;
  }

  async start(): Promise<void> {
    const sweepMs = this.options.sweepIntervalMs ?? 5000;
    this.listener = new PgListener(listenerSettings(this.deps.knex, RELAY_APPLICATION_NAME), EVENTS_CHANNEL, {
      notify: () => this.wake(),
      // Listening again: drain at once what was committed while the connection was down.
      onState: (listening) => {
        if (listening) this.wake();
      },
      onError: (message, retryInMs) =>
        log.error({ retry_in_ms: retryInMs }, `Event relay lost its LISTEN connection (${message}); the ${sweepMs} ms sweep carries events until it is back`),
    });
    await this.listener.start();
    this.timer = setInterval(() => this.wake(), sweepMs);
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.drains.values()].map((drain) => drain.running));
    await this.listener?.stop();
  }

  /**
   * Runs the drain from the oldest; while it is busy (a burst, or just a batch still being handed
   * over), the drain from the newest, so what was just committed need not wait for it. Each drain
   * runs once at a time; a wake-up during a drain runs it again right after. Waking both every time
   * cost two claims more per commit, which at a steady rate are empty.
   */
  wake(): void {
    this.wakeDrain(this.drains.get("oldest")!.running ? "newest" : "oldest");
  }

  private wakeDrain(order: Order): void {
    const drain = this.drains.get(order)!;
    if (this.stopped) return;
    if (drain.running) {
      drain.again = true;
      return;
    }
    drain.running = this.drain(order)
      .then(() => undefined)
      .catch((err) => log.error({ err, order }, "event relay drain failed; the sweep will retry"))
      .finally(() => {
        drain.running = undefined;
        if (drain.again) {
          drain.again = false;
          this.wakeDrain(order);
        }
      });
  }

  /**
   * Dispatches every due event in batches, from the oldest (or the newest) on. A batch that fails is
   * retried event by event: those that go through are marked, the others are postponed with backoff.
   * When the first few all fail (Temporal is down, say) the drain stops and the sweep tries again.
   */
  async drain(order: Order = "oldest"): Promise<number> {
    let total = 0;
    for (;;) {
      // A stopping relay finishes the batch in hand and claims no more: other relays carry the rest.
      if (this.stopped) return total;
      const claimed = await this.claim(order);
      if (!claimed.length) return total;
      try {
        await this.read(claimed);
        total += await this.handOver(await this.plan(claimed));
      } catch (err) {
        // Whatever is left of the batch goes back at once rather than when its lease runs out.
        await this.release(claimed).catch(() => undefined);
        throw err;
      }
      // A short batch was all that was due when it was claimed; whatever was committed since has
      // woken a drain of its own, so a claim more would find nothing.
      if (claimed.length < this.batchSize) return total;
    }
  }

  /** Dispatches a planned batch; answers how many went through. */
  private async handOver(events: EventRow[]): Promise<number> {
    try {
      await this.dispatch(events);
      return events.length;
    } catch (batchError) {
      let dispatched = 0;
      let failed = 0;
      let temporalAnswers: boolean | undefined;
      for (const event of events) {
        try {
          await this.dispatch([event]);
          dispatched++;
        } catch (err) {
          await this.postpone(this.deps.knex, event, err);
          // Nothing but failures looks like an outage: leave the rest for the sweep rather than
          // wait out a timeout per event. Unless Temporal answers: then the events are bad, one
          // account's perhaps, and those behind them must not wait a sweep per few of them.
          if (++failed >= OUTAGE_AFTER_FAILURES && !dispatched && !(temporalAnswers ??= await this.temporalAnswers())) throw batchError;
        }
      }
      if (!dispatched) throw batchError;
      return dispatched;
    }
  }

  /**
   * Leases a batch of due events: no other drain or relay takes them while the lease lasts. The
   * function (migration 20261126000201) takes the first due ids of the order along the index.
   */
  private async claim(order: Order): Promise<EventRow[]> {
    const rows = await Batch.rowsOf<EventRow>(
      this.deps.knex,
      sql`select * from claim_due_events(${this.options.claimSeconds ?? CLAIM_SECONDS}, ${this.batchSize}, ${order === "newest"})`,
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Sends every consumer's reads of the batch (EventConsumer.read) in one round trip. */
  private async read(events: EventRow[]): Promise<void> {
    const batch = new Batch(this.deps.knex);
    for (const consumer of this.options.consumers) consumer.read?.(batch, events);
    await batch.run();
  }

  /**
   * Lets consumers plan the whole batch. If that fails, each event is planned alone: an event whose
   * planning fails is postponed alone, the rest go on. No transaction: a planner writes in one
   * statement and planning again adds nothing (EventConsumer), so a BEGIN and a COMMIT would only
   * cost every batch two more round trips.
   */
  private async plan(events: EventRow[]): Promise<EventRow[]> {
    const planners = this.options.consumers.filter((consumer) => consumer.plan);
    if (!events.length || !planners.length) return events;
    const { knex } = this.deps;
    try {
      for (const consumer of planners) await consumer.plan!(knex, events);
      return events;
    } catch {
      const planned: EventRow[] = [];
      for (const event of events) {
        try {
          for (const consumer of planners) await consumer.plan!(knex, [event]);
          planned.push(event);
        } catch (err) {
          await this.postpone(knex, event, err);
        }
      }
      return planned;
    }
  }

  private async dispatch(events: EventRow[]): Promise<void> {
    await Promise.all(this.options.consumers.map((consumer) => consumer.dispatch(this.deps, events)));
    await Batch.rowsOf(
      this.deps.knex,
      sql`update events set dispatched_at = now(), claimed_until = null where ${isIn(
        "id",
        events.map((e) => e.id),
      )}`,
    );
  }

  /** Gives back events this drain will not get to, so the sweep need not wait for their lease. */
  private async release(events: EventRow[]): Promise<void> {
    await this.deps
      .knex("events")
      .whereIn(
        "id",
        events.map((e) => e.id),
      )
      .whereNull("dispatched_at")
      .update({ claimed_until: null });
  }

  /**
   * 1 s, 2 s, 4 s ... up to a minute: soon enough after an outage, rare enough for a bad event. After
   * the retry budget, an event that fails while Temporal answers is the event's own problem (a payload
   * over Temporal's limit, say): it is parked instead, out of every claim, for an operator to re-drive.
   * While Temporal does not answer it is an outage, and the event keeps waiting for it to end.
   */
  private async postpone(db: Knex, event: EventRow, err: unknown): Promise<void> {
    relayHandOverFailures.inc();
    const attempts = (event.dispatch_attempts ?? 0) + 1;
    const error = err instanceof Error ? err.message : String(err);
    if (attempts >= (this.options.parkAfterAttempts ?? PARK_AFTER_ATTEMPTS) && (await this.temporalAnswers())) {
      relayEventsParked.inc();
      log.error(
        { err, event_id: event.id, account_id: event.account_id, event: event.name, attempt: attempts },
        "event could not be handed over; parked until re-driven",
      );
      await db("events").where("id", event.id).update({ dispatch_attempts: attempts, parked_at: new Date(), last_dispatch_error: error, claimed_until: null });
      return;
    }
    const delayMs = Math.min(1000 * 2 ** (attempts - 1), MAX_DISPATCH_BACKOFF_MS);
    log.warn({ err, event_id: event.id, event: event.name, attempt: attempts, retry_in_ms: delayMs }, "event could not be handed over; postponed");
    await db("events")
      .where("id", event.id)
      .update({
        dispatch_attempts: attempts,
        dispatch_after: new Date(Date.now() + delayMs),
        last_dispatch_error: error,
        claimed_until: null,
      });
  }

  private async temporalAnswers(): Promise<boolean> {
    const client = this.deps.temporal.client;
    return client.connection.withDeadline(Date.now() + PARK_PROBE_DEADLINE_MS, () => temporalIsReachable(client)).catch(() => false);
  }
}
