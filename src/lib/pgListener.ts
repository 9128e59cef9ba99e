// No library fits: pg-listen, npm's LISTEN helper, never re-runs LISTEN after it reconnects and gives up retrying.
import type { Knex } from "knex";
import pg from "pg";

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export interface ListenerHandlers {
  notify(payload: string | undefined): void;
  /** Called when the connection is lost (false) and when it listens again (true). */
  onState?(listening: boolean): void;
  onError?(message: string, retryInMs: number): void;
}

/**
 * The settings of a knex database's connections, for a listener of its own (named `applicationName`
 * in pg_stat_activity when given). knex keeps the password a hidden property of its settings, so
 * that logs do not show it: a copy by spreading connects without one, which a server that asks for
 * a password (npm start's embedded one) refuses.
 */
export function listenerSettings(knex: Knex, applicationName?: string): pg.ClientConfig {
  const settings = (knex.client as { connectionSettings: pg.ClientConfig | string }).connectionSettings;
  const own = typeof settings === "string" ? { connectionString: settings } : { ...settings, password: settings.password };
  return applicationName ? { ...own, application_name: applicationName } : own;
}

/**
 * A dedicated connection LISTENing on one channel that comes back by itself: when it drops, it
 * reconnects with backoff (1 s doubling to 30 s) and says so, so its owner can fall back (sweep,
 * bypass a cache) until it is listening again.
 */
export class PgListener {
  listening = false;
  private client?: pg.Client;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string,
    private readonly handlers: ListenerHandlers,
  ) {}

  /** Listens; throws if the first connection fails (the caller decides whether to go on without). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.listening = false;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.connection);
    this.client = client;
    let lost = false;
    const onLost = (reason: string) => {
      if (lost || this.stopped) return;
      lost = true;
      this.setListening(false);
      this.handlers.onError?.(reason, this.retryMs);
      client.end().catch(() => undefined);
      this.scheduleRetry();
    };
    client.on("error", (err) => onLost(err.message));
    client.on("end", () => onLost("connection ended"));
    client.on("notification", (message) => this.handlers.notify(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      lost = true;
      client.end().catch(() => undefined);
      throw err;
    }
    this.retryMs = FIRST_RETRY_MS;
    this.setListening(true);
  }

  private scheduleRetry(): void {
    this.retryTimer = setTimeout(() => {
      this.connect().catch((err: Error) => {
        this.handlers.onError?.(err.message, this.retryMs);
        if (!this.stopped) this.scheduleRetry();
      });
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private setListening(listening: boolean): void {
    if (this.listening === listening) return;
    this.listening = listening;
    this.handlers.onState?.(listening);
  }
}
