import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { sql } from "../db/sql";
import { Trip } from "../db/trip";
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

export class PresenceRows {
  private readonly live = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Knex,
    private readonly options: PresenceOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.heartbeat().catch(() => undefined), this.options.heartbeatMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const ids = [...this.live];
    this.live.clear();
    if (ids.length) await this.db("realtime_presence").whereIn("id", ids).delete();
  }

  /** Marks the subscriber online and tells the account's processes; answers the row's id. */
  async join(subscriber: Subscriber): Promise<string> {
    const id = randomUUID();
    const userId = subscriber.kind === "user" ? subscriber.userId : null;
    const contactId = subscriber.kind === "contact" ? subscriber.contactId : null;
    this.live.add(id);
    await Trip.rowsOf(
      this.db,
      sql`with joined as (
        insert into realtime_presence (id, account_id, user_id, contact_id, expires_at)
        values (${id}, ${subscriber.accountId}, ${userId}, ${contactId}, now() + ${`${this.options.ttlMs} milliseconds`}::interval) returning account_id
      ) select pg_notify(${REALTIME_CHANNEL}, ${PRESENCE_NOTICE_PREFIX} || account_id) from joined`,
    );
    return id;
  }

  async leave(id: string): Promise<void> {
    if (!this.live.delete(id)) return;
    await Trip.rowsOf(
      this.db,
      sql`with left_rows as (delete from realtime_presence where id = ${id} returning account_id)
          select pg_notify(${REALTIME_CHANNEL}, ${PRESENCE_NOTICE_PREFIX} || account_id) from left_rows`,
    );
  }

  /** Keeps this process's subscriptions online (one statement), and deletes what expired long ago. */
  async heartbeat(ids: string[] = [...this.live]): Promise<void> {
    const trip = new Trip(this.db);
    if (ids.length)
      void trip.rows(sql`update realtime_presence set expires_at = now() + ${`${this.options.ttlMs} milliseconds`}::interval where id = any(${ids}::uuid[])`);
    void trip.rows(sql`delete from realtime_presence where expires_at < now() - ${RETENTION}::interval`);
    void trip.rows(sql`delete from realtime_broadcasts where created_at < now() - ${RETENTION}::interval`);
    await trip.run();
  }
}

export interface PresenceData {
  account_id: number;
  users: Record<string, string>;
  contacts?: Record<string, string>;
}

/** A connected agent is online unless their availability says busy or offline. */
export function liveAvailability(availability: string, connected: boolean): string {
  if (availability === "busy" || availability === "offline") return availability;
  return connected ? "online" : "offline";
}

/**
 * presence.update's data: the account's agents who are connected (or never go offline by
 * themselves, auto_offline false) with their status, and, for agents, the connected contacts.
 */
export async function presenceOf(db: Knex, accountId: number, { withContacts }: { withContacts: boolean }): Promise<PresenceData> {
  const trip = new Trip(db);
  const users = trip.rows<{ user_id: number; availability: string; auto_offline: boolean; connected: boolean }>(
    sql`select au.user_id, au.availability, au.auto_offline, exists (
          select 1 from realtime_presence p where p.account_id = au.account_id and p.user_id = au.user_id and p.expires_at > now()
        ) as connected
        from account_users au where au.account_id = ${accountId}`,
  );
  const contacts = withContacts
    ? trip.rows<{ contact_id: number }>(sql`select distinct contact_id from realtime_presence where ${onlineContactsOf(accountId)}`)
    : undefined;
  await trip.run();
  const data: PresenceData = { account_id: accountId, users: {} };
  for (const user of await users) {
    if (user.connected || !user.auto_offline) data.users[String(user.user_id)] = liveAvailability(user.availability, user.connected);
  }
  if (contacts) data.contacts = Object.fromEntries((await contacts).map((row) => [String(row.contact_id), "online"]));
  return data;
}

const onlineContactsOf = (accountId: number) => sql`account_id = ${accountId} and contact_id is not null and expires_at > now()`;

/** The users of the account connected now. */
export async function connectedUserIds(db: Knex, accountId: number): Promise<Set<number>> {
  const rows = await Trip.rowsOf<{ user_id: number }>(
    db,
    sql`select distinct user_id from realtime_presence where account_id = ${accountId} and user_id is not null and expires_at > now()`,
  );
  return new Set(rows.map((row) => row.user_id));
}

/** Which of these contacts of the account are connected now. */
export async function connectedContactIds(db: Knex, accountId: number, contactIds: number[]): Promise<Set<number>> {
  if (!contactIds.length) return new Set();
  const rows = await Trip.rowsOf<{ contact_id: number }>(
    db,
    sql`select distinct contact_id from realtime_presence where ${onlineContactsOf(accountId)} and contact_id = any(${contactIds}::int[])`,
  );
  return new Set(rows.map((row) => row.contact_id));
}
