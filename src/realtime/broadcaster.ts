import { type Sql, sql } from "../db/sql";
import { Batch } from "../db/batch";
import { logger } from "../lib/logger";
import { listenerSettings, PgListener } from "../lib/pgListener";
import type { LiveSubscription } from "./connection";
import { broadcastsPushed } from "./metrics";
import { type Notice, parseNotice, REALTIME_CHANNEL } from "./notices";
import { presenceOf, processApplicationName, RESUME_WINDOW } from "./presence";
import type { RealtimeServer } from "./server";

const log = logger.child({ component: "realtime" });

/** How long a presence notice waits for others of its account, so a burst of joins sends one update. */
const PRESENCE_COALESCE_MS = 100;

interface BroadcastRow {
  id: number;
  account_id: number;
  name: string;
  data: Record<string, unknown>;
  contact_token: string | null;
  except_token: string | null;
  /** The agents among this process's subscribers whom the broadcast is for (bigints, as strings). */
  user_ids: string[];
}

/**
 * Pushes broadcasts to this process's subscribers. Every process LISTENs for the notices the relay's
 * consumer sends, reads the rows named, and decides per row who may see it, as the REST API does:
 * administrators see the whole account, agents their inboxes' conversations, a visitor only their
 * own conversation's public messages. Notices are handled one after the other, in order.
 */
export class Broadcaster {
  private listener?: PgListener;
  private queue: Promise<void> = Promise.resolve();
  /** The newest broadcast this process has handled: after a lost LISTEN connection it reads on from there. */
  private handled = 0;
  private readonly presenceDue = new Set<number>();
  private presenceTimer?: NodeJS.Timeout;

  constructor(private readonly server: RealtimeServer) {}

  async start(): Promise<void> {
    const [row] = await Batch.rowsOf<{ id: number | null }>(this.server.db, sql`select max(id) as id from realtime_broadcasts`);
    this.handled = Number(row?.id ?? 0);
    let lost = false;
    this.listener = new PgListener(listenerSettings(this.server.db, processApplicationName(this.server.processId)), REALTIME_CHANNEL, {
      notify: (payload) => this.enqueue(parseNotice(payload)),
      onState: (listening) => {
        if (!listening) lost = true;
        else if (lost) this.enqueue({ kind: "broadcasts", ids: [] });
      },
      onError: (message, retryInMs) => log.error({ retry_in_ms: retryInMs }, `realtime lost its LISTEN connection (${message})`),
    });
    await this.listener.start();
  }

  async stop(): Promise<void> {
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    await this.listener?.stop();
    await this.queue;
  }

  private enqueue(notice: Notice | null): void {
    if (!notice) return;
    if (notice.kind === "presence") return this.presenceChanged(notice.accountId);
    this.queue = this.queue.then(() => this.pushBroadcasts(notice.ids)).catch((err) => log.error({ err }, "realtime broadcast failed"));
  }

  private presenceChanged(accountId: number): void {
    this.presenceDue.add(accountId);
    this.presenceTimer ??= setTimeout(() => {
      this.presenceTimer = undefined;
      const accounts = [...this.presenceDue];
      this.presenceDue.clear();
      this.queue = this.queue.then(() => this.pushPresence(accounts)).catch((err) => log.error({ err }, "realtime presence failed"));
    }, PRESENCE_COALESCE_MS);
  }

  get lastId(): number {
    return this.handled;
  }

  /** Queues a resumed subscription's replay: after what is being pushed now, before anything newer. */
  replay(subscription: LiveSubscription, cursor: number): void {
    this.queue = this.queue
      .then(async () => {
        const { subscriber } = subscription;
        const users = subscriber.kind === "user" ? [subscriber.userId] : [];
        const since = sql`b.id > ${cursor} and b.id <= ${this.handled} and b.created_at > now() - ${RESUME_WINDOW}::interval`;
        this.deliver(await this.read(since, [subscriber.accountId], users), [subscription]);
      })
      .catch((err) => log.error({ err }, "realtime replay failed"));
  }

  /** Reads the named broadcasts (none named: every one since the last read, after a lost connection) and pushes them. */
  private async pushBroadcasts(ids: number[]): Promise<void> {
    const accounts = this.server.accountsSubscribed;
    const users = accounts.flatMap((accountId) =>
      [...this.server.subscriptionsOf(accountId)].flatMap((s) => (s.subscriber.kind === "user" ? [s.subscriber.userId] : [])),
    );
    const rows = accounts.length ? await this.read(ids.length ? sql`b.id = any(${ids}::bigint[])` : sql`b.id > ${this.handled}`, accounts, users) : [];
    this.handled = Math.max(this.handled, ...ids, ...rows.map((row) => Number(row.id)));
    this.deliver(
      rows,
      accounts.flatMap((accountId) => [...this.server.subscriptionsOf(accountId)]),
    );
  }

  /** The selected broadcasts of these accounts, each with which of these users may see it, as the REST API scopes them. */
  private read(selected: Sql, accounts: number[], users: number[]): Promise<BroadcastRow[]> {
    return Batch.rowsOf<BroadcastRow>(
      this.server.db,
      sql`select b.id, b.account_id, b.name, b.data, b.contact_token, b.except_token,
        array(select au.user_id from account_users au where au.account_id = b.account_id and au.user_id = any(${users}::int[]) and (
          b.to_account or (b.to_inbox and (au.role = 'administrator' or exists (
            select 1 from inbox_members im where im.inbox_id = b.inbox_id and im.user_id = au.user_id))))) as user_ids
      from realtime_broadcasts b where ${selected} and b.account_id = any(${accounts}::int[]) order by b.id`,
    );
  }

  private deliver(rows: BroadcastRow[], subscriptions: LiveSubscription[]): void {
    for (const row of rows) {
      const users = new Set(row.user_ids.map(Number));
      for (const subscription of subscriptions) {
        if (subscription.subscriber.accountId === row.account_id && receives(subscription, row, users)) {
          subscription.connection.pushTo(subscription, row.name, row.data);
          broadcastsPushed.inc();
        }
      }
    }
  }

  private async pushPresence(accountIds: number[]): Promise<void> {
    for (const accountId of accountIds) {
      const subscriptions = [...this.server.subscriptionsOf(accountId)];
      if (!subscriptions.length) continue;
      const forAgents = await presenceOf(this.server.db, accountId, { withContacts: true });
      const { contacts: _contacts, ...forVisitors } = forAgents;
      for (const subscription of subscriptions) {
        subscription.connection.pushTo(subscription, "presence.update", subscription.subscriber.kind === "user" ? forAgents : forVisitors);
      }
    }
  }
}

function receives({ subscriber }: LiveSubscription, row: BroadcastRow, users: Set<number>): boolean {
  if (subscriber.token === row.except_token) return false;
  // contact_token names one subscriber: a visitor, or a user for their own notifications.
  if (subscriber.kind === "contact" || subscriber.token === row.contact_token) return subscriber.token === row.contact_token;
  return users.has(subscriber.userId);
}
