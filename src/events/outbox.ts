import type { Knex } from "knex";
import type { AppDeps } from "../deps";
import { joinSql, sql } from "../db/sql";
import type { Batch } from "../db/batch";
import type { APPOINTMENT_EVENT_NAMES } from "../scheduling/constants";

/** The event names webhooks subscribe to (spec "Events"). */
export const EVENT_NAMES = [
  "conversation_created",
  "conversation_status_changed",
  "conversation_updated",
  "message_created",
  "message_updated",
  "contact_created",
  "contact_updated",
  "webwidget_triggered",
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Events the service raises for itself; no webhook can subscribe to them. */
export const INTERNAL_EVENT_NAMES = [
  /** An account's auto-resolve settings changed: every conversation timer re-plans. */
  "account_auto_resolve_changed",
  /** An account's reminder offsets changed: every upcoming appointment's workflow re-plans. */
  "scheduling_settings_changed",
  /** A contact's or agent bot's avatar_url changed: its image is fetched in the background. */
  "avatar_url_changed",
  /** An agent read a conversation: its agents' views update live (src/realtime). */
  "conversation_read",
  /** Someone started or stopped typing in a conversation: told live to its agents and visitor (src/realtime). */
  "conversation_typing",
  /** A contact's note was added, changed or deleted: the contact's history, for listeners of the outbox. */
  "contact_note_created",
  "contact_note_updated",
  "contact_note_deleted",
  /** A user's notification was made, changed or deleted: pushed live to that user (src/notifications). */
  "notification_created",
  "notification_updated",
  "notification_deleted",
  /** Someone asked for a conversation's transcript by e-mail: mailed by a workflow (src/conversations/transcript.ts). */
  "transcript_requested",
  /** A campaign was made, changed or deleted: its workflow is started or told (src/campaigns). */
  "campaign_changed",
  /** A contact export's CSV is stored: its requesting user is notified with the link (src/contactTransfers). */
  "contact_export_completed",
  /** Slots were offered in a conversation (src/scheduling/offers.ts): the offer's workflow starts. */
  "scheduling_offer_opened",
] as const;
export type InternalEventName = (typeof INTERNAL_EVENT_NAMES)[number];

export type AppointmentEventName = (typeof APPOINTMENT_EVENT_NAMES)[number];

/**
 * What Chatwoot raises besides conversation_status_changed when a conversation opens or resolves;
 * agent bots and automation rules listen for these.
 */
export function statusTransitionEventOf(status: unknown): "conversation_opened" | "conversation_resolved" | null {
  if (status === "open") return "conversation_opened";
  if (status === "resolved") return "conversation_resolved";
  return null;
}

/** Postgres channel the relay LISTENs on; NOTIFY is delivered only when the transaction commits. */
export const EVENTS_CHANNEL = "convo_sched_events";

export interface EventRecord {
  accountId: number;
  name: EventName | InternalEventName | AppointmentEventName;
  /** The full body receivers get, `event` key included (docs/events-and-webhooks.md). */
  payload: Record<string, unknown>;
  inboxId?: number | null;
  conversationId?: number | null;
  /** Set when an automation rule's action caused the event: automation ignores such events (loop protection). */
  performedByRuleId?: number | null;
}

/**
 * Records events in the caller's transaction, in order, and wakes the relay, in one statement. Pass
 * the transaction of the change itself: the events then exist exactly when the change does, and are
 * never lost or invented by a rollback.
 */
export async function recordEvent(trx: Knex.Transaction, events: EventRecord | EventRecord[]): Promise<void> {
  const list = Array.isArray(events) ? events : [events];
  if (!list.length) return;
  const rows = list.map(
    (event) =>
      sql`(${event.accountId}, ${event.name}, ${JSON.stringify(event.payload)}::jsonb, ${event.inboxId ?? null}, ${event.conversationId ?? null}, ${event.performedByRuleId ?? null})`,
  );
  // A data-modifying CTE runs to completion whatever the outer query reads; NOTIFY goes out at commit.
  await sql`with recorded as (
      insert into events (account_id, name, payload, inbox_id, conversation_id, performed_by_rule_id) values ${joinSql(rows, ", ")} returning id
    ) select pg_notify(${EVENTS_CHANNEL}, '') from recorded limit 1`.raw(trx);
}

/** An event row as the relay reads it. */
export interface EventRow {
  id: number;
  /** Random, so a restored database's new event never takes the workflow ids of one it forgot. */
  uid: string;
  account_id: number;
  name: string;
  payload: Record<string, unknown>;
  inbox_id: number | null;
  conversation_id: number | null;
  created_at: Date;
  /** Failed hand-overs so far (the relay's backoff). */
  dispatch_attempts?: number;
  /** Set when an automation rule's action caused the event. */
  performed_by_rule_id?: number | null;
}

/**
 * Something that acts on committed events (webhook deliveries, timers, automation, ...): it may plan
 * rows for a batch, then hands the whole batch to Temporal, so it can run calls side by side and
 * skip repeats within the batch. The relay (relay.ts) runs every consumer on every event;
 * src/runtime.ts says which consumers there are.
 */
export interface EventConsumer {
  /**
   * Sends what the consumer reads of a batch of events in a Batch the relay shares between every
   * consumer, so a batch's reads cost one round trip however many consumers read; the consumer keeps the
   * answers (BatchReads) for the batch's plan and dispatch.
   */
  read?(batch: Batch, events: EventRow[]): void;
  /**
   * Runs outside a transaction, and again for events whose hand-over failed: it writes its rows in
   * one statement, and planning an event again writes nothing new.
   */
  plan?(db: Knex, events: EventRow[]): Promise<void>;
  dispatch(deps: AppDeps, events: EventRow[]): Promise<void>;
}

/**
 * What a consumer read of a batch in the relay's Batch, for the batch's plan and dispatch, or for an
 * event of it retried alone (the batch's read covers it). An event claimed again later is a new row,
 * read again.
 */
export class BatchReads<T> {
  private readonly ofEvent = new WeakMap<EventRow, Promise<T>>();

  keep(events: EventRow[], read: Promise<T>): void {
    for (const event of events) this.ofEvent.set(event, read);
  }

  /** The read that covered all of these events, if one did; else what `fresh` reads now. */
  of(events: EventRow[], fresh: () => Promise<T>): Promise<T> {
    const read = events.length ? this.ofEvent.get(events[0]!) : undefined;
    return read && events.every((event) => this.ofEvent.get(event) === read) ? read : fresh();
  }
}
