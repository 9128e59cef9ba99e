import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { sql } from "../db/sql";
import { Batch } from "../db/batch";
import type { Subscriber } from "./channel";
import { PRESENCE_NOTICE_PREFIX, REALTIME_CHANNEL } from "./notices";

/**
 * Who is online, kept in PostgreSQL so that every API process tells the same: a row per live
 * subscription, which its process's heartbeat keeps from expiring. A process that dies leaves its
 * rows to expire; nothing is said then (Chatwoot says nothing on disconnect either).
 */
export interface PresenceOptions {
  /** How long a subscription counts as online after its process's last heartbeat. */
  ttlMs: number;
  heartbeatMs: number;
}

export const DEFAULT_PRESENCE: PresenceOptions = { ttlMs: 30_000, heartbeatMs: 10_000 };

/** Expired rows and broadcasts are deleted this long after, by any process's heartbeat. */
const RETENTION = "1 hour";

/** How long after a connection ended a client coming back with its token is sent what it missed. */
export const RESUME_WINDOW = "2 minutes";

/** The application_name of a process's LISTEN connection: while it is in pg_stat_activity, the process lives. */
const APPLICATION_NAME_PREFIX = "convo-sched realtime ";
export const processApplicationName = (processId: string) => `${APPLICATION_NAME_PREFIX}${processId}`;

/**
 * This process's presence rows. Each also keeps how far its process had pushed broadcasts (the
 * heartbeat writes it), so that a client cut off by a restart or a crash, coming back with the
 * same token, is sent what came after (resume).
 */
export class PresenceRows {
  private readonly live = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Knex,
    private readonly options: PresenceOptions,
    private readonly processId: string,
    /** The newest broadcast this process has pushed. */
    private readonly seen: () => number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.heartbeat().catch(() => undefined), this.options.heartbeatMs);
  }

  /** Ends every live row (their clients may resume elsewhere). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const ids = [...this.live];
    this.live.clear();
    if (ids.length) await Batch.rowsOf(this.db, sql`${this.ended()} where id = any(${ids}::uuid[]) returning id`);
  }

  private ended() {
    return sql`update realtime_presence set expires_at = now(), left_at = now(), seen_broadcast_id = greatest(seen_broadcast_id, ${this.seen()})`;
  }

  private ttl() {
    return sql`now() + ${`${this.options.ttlMs} milliseconds`}::interval`;
  }

  /** Marks the subscriber online and tells the account's processes; answers the row's id. */
  async join(subscriber: Subscriber): Promise<string> {
    const id = randomUUID();
    const userId = subscriber.kind === "user" ? subscriber.userId : null;
    const contactId = subscriber.kind === "contact" ? subscriber.contactId : null;
    this.live.add(id);
    await Batch.rowsOf(
      this.db,
      sql`with joined as (
        insert into realtime_presence (id, account_id, user_id, contact_id, expires_at, pubsub_token, process_id, seen_broadcast_id)
        values (${id}, ${subscriber.accountId}, ${userId}, ${contactId}, ${this.ttl()}, ${subscriber.token}, ${this.processId}, ${this.seen()}) returning account_id
      ) select pg_notify(${REALTIME_CHANNEL}, ${PRESENCE_NOTICE_PREFIX} || account_id) from joined`,
    );
    return id;
  }

  /**
   * The subscriber is gone. A connection that closed may come back (resume); one that unsubscribed
   * asked for nothing more, and its row goes.
   */
  async leave(id: string, { resumable }: { resumable: boolean }): Promise<void> {
    if (!this.live.delete(id)) return;
    const left = resumable
      ? sql`${this.ended()} where id = ${id} returning account_id`
      : sql`delete from realtime_presence where id = ${id} returning account_id`;
    await Batch.rowsOf(this.db, sql`with left_rows as (${left}) select pg_notify(${REALTIME_CHANNEL}, ${PRESENCE_NOTICE_PREFIX} || account_id) from left_rows`);
  }

  /**
   * Where a subscriber coming back should resume: the oldest point among this token's connections
   * of the account that ended lately (closed, or their process is gone), so that no connection of
   * it misses anything; null when none did. Rows of a dead process are ended on the way.
   */
  async resumePoint(subscriber: Subscriber): Promise<number | null> {
    const [row] = await Batch.rowsOf<{ cursor: string | null }>(
      this.db,
      sql`with ended as (
        update realtime_presence p set left_at = coalesce(p.left_at, now()), expires_at = least(p.expires_at, now())
        where p.pubsub_token = ${subscriber.token} and p.account_id = ${subscriber.accountId}
          and (p.left_at > now() - ${RESUME_WINDOW}::interval or (p.left_at is null and p.expires_at > now() - ${RESUME_WINDOW}::interval
            and not exists (select 1 from pg_stat_activity a where a.application_name = ${APPLICATION_NAME_PREFIX} || p.process_id)))
        returning p.seen_broadcast_id
      ) select min(seen_broadcast_id) as cursor from ended`,
    );
    return row?.cursor == null ? null : Number(row.cursor);
  }

  /**
   * Keeps this process's subscriptions online with how far it has pushed (one statement), and deletes
   * what expired long ago. A subscription that left after the ids were read stays left.
   */
  async heartbeat(ids: string[] = [...this.live]): Promise<void> {
    const batch = new Batch(this.db);
    if (ids.length) {
      void batch.rows(
        sql`update realtime_presence set expires_at = ${this.ttl()}, seen_broadcast_id = ${this.seen()} where id = any(${ids}::uuid[]) and left_at is null`,
      );
    }
    void batch.rows(sql`delete from realtime_presence where expires_at < now() - ${RETENTION}::interval`);
    void batch.rows(sql`delete from realtime_broadcasts where created_at < now() - ${RETENTION}::interval`);
    await batch.run();
  }
}

export interface PresenceData {
  account_id: number;
  users: Record<string, string>;
  contacts?: Record<string, string>;
}

/**
 * A connected agent is online unless their availability says busy or offline; one who never goes
 * offline by themselves (auto_offline false) shows their availability connected or not.
 */
export function liveAvailability(availability: string, connected: boolean, autoOffline = true): string {
  if (availability === "busy" || availability === "offline") return availability;
  return connected || !autoOffline ? "online" : "offline";
}

/**
 * presence.update's data: the account's agents who are connected (or never go offline by
 * themselves, auto_offline false) with their status, and, for agents, the connected contacts.
 */
export async function presenceOf(db: Knex, accountId: number, { withContacts }: { withContacts: boolean }): Promise<PresenceData> {
  const batch = new Batch(db);
  const users = batch.rows<{ user_id: number; availability: string; auto_offline: boolean; connected: boolean }>(
    sql`select au.user_id, au.availability, au.auto_offline, exists (
          select 1 from realtime_presence p where p.account_id = au.account_id and p.user_id = au.user_id and p.expires_at > now()
        ) as connected
        from account_users au where au.account_id = ${accountId}`,
  );
  const contacts = withContacts
    ? batch.rows<{ contact_id: number }>(sql`select distinct contact_id from realtime_presence where ${onlineContactsOf(accountId)}`)
    : undefined;
  await batch.run();
  const data: PresenceData = { account_id: accountId, users: {} };
  for (const user of await users) {
    if (user.connected || !user.auto_offline) data.users[String(user.user_id)] = liveAvailability(user.availability, user.connected, user.auto_offline);
  }
  if (contacts) data.contacts = Object.fromEntries((await contacts).map((row) => [String(row.contact_id), "online"]));
  return data;
}

const onlineContactsOf = (accountId: number) => sql`account_id = ${accountId} and contact_id is not null and expires_at > now()`;

/** The account's contacts online now, as a subquery (contacts/active). */
export const onlineContactIdsSql = (accountId: number) => sql`select contact_id from realtime_presence where ${onlineContactsOf(accountId)}`;

/** The users of the account connected now. */
export async function connectedUserIds(db: Knex, accountId: number): Promise<Set<number>> {
  const rows = await Batch.rowsOf<{ user_id: number }>(
    db,
    sql`select distinct user_id from realtime_presence where account_id = ${accountId} and user_id is not null and expires_at > now()`,
  );
  return new Set(rows.map((row) => row.user_id));
}

/** Which of these contacts of the account are connected now. */
export async function connectedContactIds(db: Knex, accountId: number, contactIds: number[]): Promise<Set<number>> {
  if (!contactIds.length) return new Set();
  const rows = await Batch.rowsOf<{ contact_id: number }>(
    db,
    sql`select distinct contact_id from realtime_presence where ${onlineContactsOf(accountId)} and contact_id = any(${contactIds}::int[])`,
  );
  return new Set(rows.map((row) => row.contact_id));
}
