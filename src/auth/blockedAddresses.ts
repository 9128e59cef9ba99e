import type { Knex } from "knex";
import { listenerSettings, PgListener } from "../lib/pgListener";
import { logger } from "../lib/logger";

const log = logger.child({ component: "blocked_addresses" });

/** Channel on which an API process announces an address it has just blocked, as `<ms until unblocked> <address>`. */
export const BLOCKED_CHANNEL = "convo_sched_blocked";

/**
 * The addresses that have failed authentication too often, mirrored in every API process so the
 * check before each token request costs a map lookup instead of a database read. The counters stay
 * in PostgreSQL (rate_limits, shared by all instances); the process that counts the failure that
 * crosses the limit announces the block, and every process loads the current blocks whenever its
 * LISTEN connection (re)connects. While that connection is down the mirror says it does not know,
 * and the caller reads the counter itself, so a missed announcement never lets a blocked address in.
 */
export class BlockedAddresses {
  private readonly until = new Map<string, number>();
  private readonly listener: PgListener;
  /** Set once the blocks current at the last (re)connection have been loaded. */
  private loaded = false;
  private loading: Promise<void> = Promise.resolve();

  /**
   * @param keyPrefix the counters' prefix in rate_limits (rate-limiter-flexible writes `<prefix>:<address>`)
   * @param points failures at which an address is blocked
   */
  constructor(
    private readonly knex: Knex,
    private readonly keyPrefix: string,
    private readonly points: number,
  ) {
    this.listener = new PgListener(listenerSettings(knex), BLOCKED_CHANNEL, {
      notify: (payload) => this.onAnnouncement(payload),
      onState: (listening) => {
        this.loaded = false;
        if (listening) this.loading = this.load();
      },
      onError: (message, retryInMs) =>
        log.error(
          { retry_in_ms: retryInMs },
          `Blocked-address mirror lost its LISTEN connection (${message}); every check reads the database until it is back`,
        ),
    });
  }

  async start(): Promise<void> {
    await this.listener.start();
    await this.loading;
  }

  async stop(): Promise<void> {
    await this.listener.stop();
    this.loaded = false;
    this.until.clear();
  }

  /** Milliseconds the address stays blocked (0: not blocked), or undefined when the mirror cannot tell. */
  blockedFor(address: string): number | undefined {
    if (!this.loaded || !this.listener.listening) return undefined;
    const until = this.until.get(address);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left <= 0) this.until.delete(address);
    return Math.max(left, 0);
  }

  /** Records a block here at once and tells the other processes. */
  async announce(address: string, msBeforeNext: number): Promise<void> {
    this.block(address, Date.now() + msBeforeNext);
    await this.knex.raw("SELECT pg_notify(?, ?)", [BLOCKED_CHANNEL, `${msBeforeNext} ${address}`]);
  }

  private onAnnouncement(payload: string | undefined): void {
    const match = /^(\d+) (.+)$/s.exec(payload ?? "");
    if (match) this.block(match[2]!, Date.now() + Number(match[1]));
  }

  private block(address: string, until: number): void {
    this.until.set(address, Math.max(until, this.until.get(address) ?? 0));
  }

  private async load(): Promise<void> {
    try {
      const prefix = `${this.keyPrefix}:`;
      const { rows } = await this.knex.raw<{ rows: { key: string; expire: string }[] }>(
        "SELECT key, expire FROM rate_limits WHERE starts_with(key, ?) AND points >= ? AND expire > ?",
        [prefix, this.points, Date.now()],
      );
      for (const row of rows) this.block(row.key.slice(prefix.length), Number(row.expire));
      this.loaded = this.listener.listening;
    } catch (err) {
      // Left unloaded: checks keep reading the database, and the next reconnection loads again.
      log.error({ err }, "could not load the blocked addresses");
    }
  }
}
