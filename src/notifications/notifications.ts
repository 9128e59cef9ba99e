import type { Knex } from "knex";
import { NotFound } from "../errors";
import { type EventRecord, recordEvent } from "../events/outbox";
import { AccountUser } from "../models/AccountUser";
import { Notification } from "../models/Notification";
import { User } from "../models/User";
import { notificationPushData } from "./presenters";

export const NOTIFICATIONS_PER_PAGE = 15;

/** Not read, and not snoozed into the future: what the badge counts. */
const UNREAD = "read_at IS NULL AND (snoozed_until IS NULL OR snoozed_until <= now())";

export interface NotificationCounts {
  unread_count: number;
  count: number;
}

export async function countsOf(db: Knex, accountId: number, userId: number): Promise<NotificationCounts> {
  const row: { unread: string; total: string } = await db("notifications")
    .where({ account_id: accountId, user_id: userId })
    .first(db.raw(`count(*) FILTER (WHERE ${UNREAD}) AS unread, count(*) AS total`));
  return { unread_count: Number(row.unread), count: Number(row.total) };
}

export interface ListOptions {
  page: number;
  includeRead: boolean;
  includeSnoozed: boolean;
  sortOrder: "asc" | "desc";
}

/** NotificationFinder: read and snoozed ones only when asked for, by last activity. */
export async function listNotifications(db: Knex, accountId: number, userId: number, options: ListOptions) {
  const query = Notification.query(db).where({ account_id: accountId, user_id: userId });
  if (!options.includeRead) query.whereNull("read_at");
  if (!options.includeSnoozed) query.where((w) => w.whereNull("snoozed_until").orWhere("snoozed_until", "<=", db.fn.now()));
  const count = await query.clone().resultSize();
  const unread = await query.clone().whereRaw(UNREAD).resultSize();
  const notifications = await query
    .orderBy([
      { column: "last_activity_at", order: options.sortOrder },
      { column: "id", order: options.sortOrder },
    ])
    .limit(NOTIFICATIONS_PER_PAGE)
    .offset((options.page - 1) * NOTIFICATIONS_PER_PAGE);
  return { notifications, count, unread_count: unread };
}

/** Each user's push data and availability in the account, for the notifications' `user`. */
export async function usersOf(db: Knex, accountId: number, userIds: number[]) {
  const ids = [...new Set(userIds)];
  const users = ids.length ? await User.query(db).findByIds(ids) : [];
  const memberships = ids.length ? await AccountUser.query(db).where("account_id", accountId).whereIn("user_id", ids) : [];
  const availability = new Map(memberships.map((m) => [m.user_id, m.availability]));
  return new Map(users.map((user) => [user.id, { user, availability: availability.get(user.id) ?? "offline" }]));
}

/**
 * Live pushes of notification.created/updated/deleted, made through the outbox in the change's own
 * transaction: the realtime consumer sends each to the user's own subscriptions.
 */
export async function recordNotificationEvents(
  trx: Knex.Transaction,
  name: "notification_created" | "notification_updated" | "notification_deleted",
  notifications: Notification[],
) {
  if (!notifications.length) return;
  const records: EventRecord[] = [];
  for (const [accountId, list] of groupBy(notifications, (n) => n.account_id)) {
    const users = await usersOf(
      trx,
      accountId,
      list.map((n) => n.user_id),
    );
    for (const notification of list) {
      const user = users.get(notification.user_id);
      if (!user) continue;
      const data = name === "notification_deleted" ? { id: notification.id } : notificationPushData(notification, user);
      const counts = await countsOf(trx, accountId, notification.user_id);
      records.push({ accountId, name, payload: { notification: data, ...counts, pubsub_token: user.user.pubsub_token } });
    }
  }
  await recordEvent(trx, records);
}

function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

export async function findNotification(accountId: number, userId: number, id: number): Promise<Notification> {
  const notification = await Notification.query().findOne({ account_id: accountId, user_id: userId, id });
  if (!notification) throw NotFound();
  return notification;
}

/** One user's notification changed under a row lock, its live update recorded with it. */
export async function changeNotification(current: Notification, patch: Partial<Notification>): Promise<Notification> {
  return Notification.transaction(async (trx) => {
    const updated = await Notification.query(trx).patchAndFetchById(current.id, patch);
    if (!updated) throw NotFound();
    await recordNotificationEvents(trx, "notification_updated", [updated]);
    return updated;
  });
}

export async function deleteNotifications(accountId: number, userId: number, filter: { id?: number; readOnly?: boolean }): Promise<void> {
  await Notification.transaction(async (trx) => {
    const query = Notification.query(trx).delete().where({ account_id: accountId, user_id: userId });
    if (filter.id) query.where("id", filter.id);
    if (filter.readOnly) query.whereNotNull("read_at");
    const deleted = (await query.returning("*")) as unknown as Notification[];
    // destroy_all is Chatwoot's delete_all, which tells no one; one deletion is pushed live.
    if (filter.id) await recordNotificationEvents(trx, "notification_deleted", deleted);
  });
}

/** read_all: every unread one (of one conversation when named), in one statement. */
export async function readAll(accountId: number, userId: number, conversationId: number | undefined): Promise<void> {
  const query = Notification.knex()("notifications").where({ account_id: accountId, user_id: userId }).whereNull("read_at");
  if (conversationId) query.where({ primary_actor_type: "Conversation", primary_actor_id: conversationId });
  await query.update({ read_at: new Date(), updated_at: new Date() });
}
