import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { timeInput } from "../../../schemas/time";
import { id, idOrAbsent, oneOf, page, wrappedUnder } from "../../../http/schemas";

/** `includes[]=read&includes[]=snoozed`, or a CSV, or one value. */
const includes = z.preprocess((value) => (typeof value === "string" ? value.split(",") : value), z.array(z.string().max(MAX_LENGTH.string)).max(10).optional());

export const notificationListQuery = z.object({
  page: page().optional(),
  includes: includes,
  sort_order: oneOf(["desc", "asc"], "desc"),
});

export const readAllBody = z.object({ primary_actor_type: z.string().max(MAX_LENGTH.string).optional(), primary_actor_id: idOrAbsent().optional() });
export const snoozeBody = z.object({ snoozed_until: timeInput.unwrap() });
export const destroyAllBody = z.object({ type: z.string().max(MAX_LENGTH.string).optional() });

export const notificationParams = z.object({ account_id: id(), id: id() });

const flags = z.array(z.string().max(MAX_LENGTH.string)).max(50);
export const settingsBody = z.preprocess(
  wrappedUnder("notification_settings"),
  z.object({ selected_email_flags: flags.optional(), selected_push_flags: flags.optional() }),
);

export const notificationItem = z
  .object({
    id: z.number(),
    notification_type: z.string(),
    push_message_title: z.string(),
    primary_actor_type: z.string(),
    primary_actor_id: z.number(),
    primary_actor: z.record(z.string(), z.unknown()),
    read_at: z.string().nullable(),
    secondary_actor: z.record(z.string(), z.unknown()).nullable(),
    user: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.number(),
    last_activity_at: z.number(),
    snoozed_until: z.string().nullable(),
    meta: z.record(z.string(), z.unknown()),
    account_id: z.number(),
  })
  .openapi("Notification");

export const notificationList = z.object({
  data: z.object({ meta: z.object({ unread_count: z.number(), count: z.number(), current_page: z.number() }), payload: z.array(notificationItem) }),
});

export const notificationRecordResponse = z
  .object({ id: z.number(), user_id: z.number(), notification_type: z.string(), read_at: z.string().nullable(), snoozed_until: z.string().nullable() })
  .passthrough()
  .openapi("NotificationRecord");

export const settingsResponse = z
  .object({
    id: z.number(),
    user_id: z.number(),
    account_id: z.number(),
    all_email_flags: z.array(z.string()),
    selected_email_flags: z.array(z.string()),
    all_push_flags: z.array(z.string()),
    selected_push_flags: z.array(z.string()),
  })
  .openapi("NotificationSettings");
