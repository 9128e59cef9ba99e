import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Database } from "../db";
import { parkedState } from "../events/parked";

/**
 * The process's Prometheus metrics. Counters and the latency histogram count what this process did;
 * the gauges read the database at scrape time, so any process (API or worker) tells the same truth
 * about the outbox, the deliveries and the timers.
 */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics });

export const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "HTTP request latency by method, route template and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metrics],
});

export const relayHandOverFailures = new Counter({
  name: "event_relay_hand_over_failures_total",
  help: "Events the relay could not hand over to Temporal (each is postponed and retried)",
  registers: [metrics],
});

export const relayEventsParked = new Counter({
  name: "event_relay_parked_total",
  help: "Events this process parked after their hand-over kept failing while Temporal answered",
  registers: [metrics],
});

export const rateLimited = new Counter({
  name: "http_rate_limited_total",
  help: "Requests answered 429 by a throttle",
  labelNames: ["rule"] as const,
  registers: [metrics],
});

/** The database whose state the gauges report; the first one registered (the process's own pool). */
let database: Database | undefined;

/** Points the database gauges at this pool; later calls (a second app in tests) keep the first. */
export function watchDatabase(knex: Database): void {
  database ??= knex;
}

/** Numbers that are read from the database when scraped; an unreachable database leaves them unset. */
function databaseGauge(name: string, help: string, labelNames: string[], read: (db: Database, gauge: Gauge) => Promise<void>): Gauge {
  return new Gauge({
    name,
    help,
    labelNames,
    registers: [metrics],
    async collect() {
      if (!database) return;
      this.reset();
      await read(database, this).catch(() => undefined);
    },
  });
}

/** The outbox the relay still works on: parked events (events/parked.ts) are counted apart. */
export interface OutboxState {
  backlog: number;
  /** Seconds since the oldest undispatched, unparked event was committed; 0 when there is none. */
  oldestAgeSeconds: number;
}

export async function outboxState(db: Database): Promise<OutboxState> {
  const { rows } = await db.raw<{ rows: { backlog: number; oldest: string | null }[] }>(
    `SELECT (SELECT count(*)::int FROM events WHERE dispatched_at IS NULL AND parked_at IS NULL) AS backlog,
            (SELECT extract(epoch FROM now() - created_at) FROM events WHERE dispatched_at IS NULL AND parked_at IS NULL ORDER BY id LIMIT 1) AS oldest`,
  );
  return { backlog: rows[0]!.backlog, oldestAgeSeconds: Number(rows[0]!.oldest ?? 0) };
}

databaseGauge("outbox_backlog_events", "Committed events not yet handed over to Temporal", [], async (db, gauge) => {
  gauge.set((await outboxState(db)).backlog);
});

databaseGauge("outbox_oldest_undispatched_age_seconds", "Age of the oldest committed event not yet handed over (0 when none)", [], async (db, gauge) => {
  gauge.set((await outboxState(db)).oldestAgeSeconds);
});

databaseGauge("outbox_postponed_events", "Undispatched events whose hand-over failed at least once", [], async (db, gauge) => {
  const row = await db("events")
    .whereNull("dispatched_at")
    .whereNull("parked_at")
    .where("dispatch_attempts", ">", 0)
    .count<{ count: string }[]>("* as count")
    .first();
  gauge.set(Number(row?.count ?? 0));
});

databaseGauge(
  "outbox_parked_events",
  "Events the relay parked (see /health for the oldest's error); re-drive with npm run events:redrive",
  [],
  async (db, gauge) => {
    gauge.set((await parkedState(db)).count);
  },
);

databaseGauge("outbox_oldest_parked_age_seconds", "Age of the oldest parked event (0 when none)", [], async (db, gauge) => {
  gauge.set((await parkedState(db)).oldestAgeSeconds);
});

// One series, for the oldest parked event only: an alert can show its error without a label per event.
databaseGauge(
  "outbox_oldest_parked_event",
  "The oldest parked event (value 1), labelled with its id, account, name and last hand-over error",
  ["event_id", "account_id", "event", "error"],
  async (db, gauge) => {
    const { oldest } = await parkedState(db);
    if (oldest) gauge.set({ event_id: oldest.id, account_id: oldest.account_id, event: oldest.name, error: (oldest.error ?? "").slice(0, 200) }, 1);
  },
);

databaseGauge("webhook_deliveries", "Webhook and agent-bot deliveries by result (pending, delivered, failed)", ["result"], async (db, gauge) => {
  const rows = await db("webhook_deliveries").select("status").count<{ status: string; count: string }[]>("* as count").groupBy("status");
  for (const result of ["pending", "delivered", "failed"]) gauge.set({ result }, 0);
  for (const row of rows) gauge.set({ result: row.status }, Number(row.count));
});

// Planned deadlines (conversationTimers.planTimers): a snoozed conversation's reopens it, an open one's resolves it.
databaseGauge("conversation_timers_pending", "Conversations whose timer waits to auto-resolve or reopen them", ["kind"], async (db, gauge) => {
  const { rows } = await db.raw<{ rows: { reopen: number; resolve: number }[] }>(
    `SELECT count(*) FILTER (WHERE status = 'snoozed')::int AS reopen, count(*) FILTER (WHERE status <> 'snoozed')::int AS resolve
     FROM conversations WHERE timer_due_at IS NOT NULL`,
  );
  gauge.set({ kind: "reopen" }, rows[0]!.reopen);
  gauge.set({ kind: "resolve" }, rows[0]!.resolve);
});

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

new Gauge({
  name: "db_pool_connections",
  help: "This process's PostgreSQL pool: connections in use, idle, awaited, and the maximum",
  labelNames: ["state"],
  registers: [metrics],
  collect() {
    const pool = (database?.client as { pool?: TarnPool } | undefined)?.pool;
    if (!pool) return;
    this.set({ state: "used" }, pool.numUsed());
    this.set({ state: "free" }, pool.numFree());
    this.set({ state: "pending" }, pool.numPendingAcquires());
    this.set({ state: "max" }, pool.max);
  },
});
