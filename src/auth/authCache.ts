import type { Knex } from "knex";
import { listenerSettings, PgListener } from "../lib/pgListener";
import { logger } from "../lib/logger";

const log = logger.child({ component: "auth_cache" });

/** Channel the auth tables' triggers notify on any change (migration 20261123000103). */
export const AUTH_CHANNEL = "convo_sched_auth";

export interface AuthCacheOptions {
  /** A backstop: entries live at most this long even if no change is announced. */
  ttlMs?: number;
  maxEntries?: number;
}

/** A statement that changes what authentication or account scope read (see the triggers). */
const AUTH_WRITE =
  /^\s*(insert\s+into|update|delete\s+from|truncate)\s+(table\s+)?"?(access_tokens|users|agent_bots|platform_apps|accounts|account_users|agent_bot_inboxes)"?[\s(]/i;
/** Bumping an account's conversation counter is not such a change (the accounts trigger ignores it too). */
const DISPLAY_ID_BUMP = /^\s*update\s+"accounts"\s+set\s+"last_conversation_display_id"\s*=\s*"last_conversation_display_id"\s*\+\s*\?/i;

/**
 * A request's own copy of a cached model (or row): its nested values (JSON columns, arrays, dates)
 * copied, so nothing a handler does to it reaches the cache. Cheaper than Objection's $clone, which
 * builds a fresh model through its constructor and clones generically.
 */
export function requestCopy<M extends object>(cached: M): M {
  const copy = Object.create(Object.getPrototypeOf(cached) as object) as Record<string, unknown>;
  for (const [key, value] of Object.entries(cached)) copy[key] = copyValue(value);
  return copy as M;
}

/**
 * A column's value copied: what PostgreSQL's JSON and array columns parse to (plain objects, arrays,
 * scalars) by hand, several times faster than structuredClone on these small values, which every
 * request copies; anything else by structuredClone.
 */
function copyValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return value.map(copyValue);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyValue((value as Record<string, unknown>)[key]);
    // JSON may hold a "__proto__" key: kept as data, as JSON.parse keeps it, never as the prototype.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

interface QueryEvent {
  sql?: string;
  __knexTxId?: string;
  /** The connection's id in knex's pool. */
  __knexUid?: string;
}

/** What the cache needs of knex's pool (tarn): it says when a connection comes back, so when a transaction has ended. */
interface ReleasingPool {
  on(event: "release", listener: (connection: { __knexUid?: string }) => void): void;
  removeListener(event: "release", listener: (connection: { __knexUid?: string }) => void): void;
}

/**
 * Who a token belongs to, and what that caller is in an account, change rarely and are read by every
 * request. This cache keeps them per process and forgets everything when any token, user, bot,
 * platform app, account or membership changes: at once when this process commits the change (so a
 * client reads its own writes), and a moment later when another process or a script does (triggers
 * NOTIFY on AUTH_CHANNEL). While its LISTEN connection is down it does not cache at all, so a missed
 * notification can never leave a revoked token working.
 */
export class AuthCache {
  private readonly entries = new Map<string, { value: unknown; expires: number }>();
  /** Bumped by every change: a load that raced a change is not stored. */
  private generation = 0;
  private readonly listener: PgListener;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  /**
   * Transactions (or savepoints) of this process that changed auth tables, and when: until they end,
   * every commit here empties the cache, since a savepoint's writes commit with its outer transaction.
   */
  private readonly changing = new Map<string, number>();
  /**
   * Connections committing (or rolling back) while such a change was open. Knex announces a COMMIT
   * before it runs and nothing after; the connection's return to the pool is the first sign that it
   * is done. Until then a load may read the state before the change, so none is kept.
   */
  private readonly committing = new Map<string, number>();
  private readonly watchWrites = (_response: unknown, query: QueryEvent) => this.onWriteDone(query);
  private readonly watchEnds = (query: QueryEvent) => this.onQueryStart(query);
  private readonly watchReleases = ({ __knexUid: connection }: { __knexUid?: string }) => {
    if (connection && this.committing.delete(connection)) this.clear();
  };

  constructor(
    private readonly knex: Knex,
    options: AuthCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.listener = new PgListener(listenerSettings(knex), AUTH_CHANNEL, {
      notify: () => this.clear(),
      onState: () => this.clear(),
      onError: (message, retryInMs) =>
        log.error({ retry_in_ms: retryInMs }, `Auth cache lost its LISTEN connection (${message}); caching is off until it is back`),
    });
  }

  async start(): Promise<void> {
    this.knex.on("query-response", this.watchWrites);
    this.knex.on("query", this.watchEnds);
    this.pool().on("release", this.watchReleases);
    await this.listener.start();
  }

  async stop(): Promise<void> {
    this.knex.off("query-response", this.watchWrites);
    this.knex.off("query", this.watchEnds);
    this.pool().removeListener("release", this.watchReleases);
    await this.listener.stop();
    this.clear();
  }

  private pool(): ReleasingPool {
    return (this.knex.client as { pool: ReleasingPool }).pool;
  }

  /** This process's own changes: outside a transaction forgotten at once, inside one remembered until it ends. */
  private onWriteDone({ sql, __knexTxId: transaction }: QueryEvent): void {
    if (!sql || !AUTH_WRITE.test(sql) || DISPLAY_ID_BUMP.test(sql)) return;
    if (transaction) this.changing.set(transaction, Date.now());
    else this.clear();
  }

  /** A transaction ending while a change is open: forgotten now, and again once the commit is done (watchReleases). */
  private onQueryStart({ sql, __knexTxId: transaction, __knexUid: connection }: QueryEvent): void {
    if (!this.changing.size || !sql || !/^\s*(commit|rollback)\b/i.test(sql)) return;
    if (connection) this.committing.set(connection, Date.now());
    this.clear();
    if (transaction) this.changing.delete(transaction);
    // A savepoint's id never sees its own commit: let it go once no transaction could still be open.
    for (const [id, at] of this.changing) if (Date.now() - at > 60_000) this.changing.delete(id);
    // A connection the pool destroyed rather than took back says nothing more: caching resumes after a minute.
    for (const [id, at] of this.committing) if (Date.now() - at > 60_000) this.committing.delete(id);
  }

  /** The value under `key`, loading (and, when it is safe, keeping) it if absent or expired. */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.listener.listening) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const generation = this.generation;
    const keep = !this.committing.size;
    const value = await load();
    if (keep && generation === this.generation && this.listener.listening) this.set(key, value);
    return value;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  private set(key: string, value: unknown): void {
    this.entries.delete(key);
    // Maps iterate in insertion order: drop the oldest when full.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }
}
