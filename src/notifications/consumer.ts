import type { Knex } from "knex";
import { Batch } from "../db/batch";
import { BatchReads, type EventConsumer, type EventRow } from "../events/outbox";
import { logger } from "../lib/logger";
import { Notification } from "../models/Notification";
import { recordNotificationEvents } from "./notifications";
import { participantsByConversation, participantsSql, type PlannedNotification, plannedNotifications } from "./recipients";

const log = logger.child({ component: "notifications" });

/** A payload that cannot be read makes no notification rather than fail the plan (and hold back the event's webhooks). */
async function safely(db: Knex, event: EventRow, participants: Map<number, number[]>): Promise<PlannedNotification[]> {
  try {
    return await plannedNotifications(db, event, async (conversationId) => participants.get(conversationId) ?? []);
  } catch (err) {
    log.warn({ err, event_id: event.id, event: event.name }, "no notification for an unreadable event");
    return [];
  }
}

/**
 * The relay's notifications consumer: it makes users' notifications of committed assignment and
 * message events, and records their live pushes (notification.created) in the same transaction.
 * An event planned again makes nothing new: a notification is unique per event, user and type.
 */
export function notificationConsumer(): EventConsumer {
  const participantsRead = new BatchReads<Map<number, number[]>>();
  const participantsOf = (batch: Batch, events: EventRow[]) => {
    const query = participantsSql(events);
    return query
      ? batch.rows<{ conversation_id: number; user_id: number }>(query).then(participantsByConversation)
      : Promise.resolve(new Map<number, number[]>());
  };
  return {
    read(batch, events) {
      participantsRead.keep(events, participantsOf(batch, events));
    },
    async plan(db, events) {
      const relevant = events.filter(
        (event) => event.name === "message_created" || event.name === "conversation_updated" || event.name === "contact_export_completed",
      );
      if (!relevant.length) return;
      const participants = await participantsRead.of(events, async () => {
        const batch = new Batch(db);
        const read = participantsOf(batch, events);
        await batch.run();
        return read;
      });
      const planned = (await Promise.all(relevant.map((event) => safely(db, event, participants)))).flat();
      if (!planned.length) return;
      await Notification.transaction(db, async (trx) => {
        const rows = planned.map((p) => ({
          account_id: p.accountId,
          user_id: p.userId,
          notification_type: p.type,
          primary_actor_type: p.primaryActorType ?? "Conversation",
          primary_actor_id: p.conversationId,
          secondary_actor_type: p.secondary?.type ?? null,
          secondary_actor_id: p.secondary?.id ?? null,
          primary_actor_data: JSON.stringify(p.primaryActorData),
          secondary_actor_data: p.secondary ? JSON.stringify(p.secondary.data) : null,
          push_message_title: p.title,
          event_id: p.eventId,
        }));
        const inserted = await trx("notifications").insert(rows).onConflict(["event_id", "user_id", "notification_type"]).ignore().returning("*");
        await recordNotificationEvents(
          trx,
          "notification_created",
          inserted.map((row) => Notification.fromDatabaseJson(row)),
        );
      });
    },
    // Planning made them: nothing waits on Temporal.
    async dispatch() {},
  };
}
