import type { Notification } from "../models/Notification";
import type { User } from "../models/User";
import { userPushEventData } from "../presenters/message";
import { iso, unixSeconds } from "../presenters/time";

/** Notification#push_event_data: what the list and the live push show of one notification. */
export function notificationPushData(notification: Notification, user: { user: User; availability: string } | undefined) {
  return {
    id: notification.id,
    notification_type: notification.notification_type,
    push_message_title: notification.push_message_title,
    primary_actor_type: notification.primary_actor_type,
    primary_actor_id: notification.primary_actor_id,
    primary_actor: notification.primary_actor_data,
    read_at: iso(notification.read_at),
    secondary_actor: notification.secondary_actor_data,
    user: user ? userPushEventData(user.user, user.availability) : null,
    created_at: unixSeconds(notification.created_at),
    last_activity_at: unixSeconds(notification.last_activity_at),
    snoozed_until: iso(notification.snoozed_until),
    meta: notification.meta,
    account_id: notification.account_id,
  };
}

/** `render json: @notification`: the row as Rails' as_json writes it. */
export function notificationRecord(notification: Notification) {
  return {
    id: notification.id,
    user_id: notification.user_id,
    notification_type: notification.notification_type,
    primary_actor_type: notification.primary_actor_type,
    primary_actor_id: notification.primary_actor_id,
    secondary_actor_type: notification.secondary_actor_type,
    secondary_actor_id: notification.secondary_actor_id,
    read_at: iso(notification.read_at),
    snoozed_until: iso(notification.snoozed_until),
    last_activity_at: iso(notification.last_activity_at),
    meta: notification.meta,
    account_id: notification.account_id,
    created_at: iso(notification.created_at),
    updated_at: iso(notification.updated_at),
  };
}
