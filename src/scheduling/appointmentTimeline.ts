/**
 * What an appointment's workflow does and when, decided from the database alone (pure, so the rules
 * are in one place and tested without Temporal): which message its conversation is owed now
 * (confirmation, move, cancellation), and the next timed step (prepayment hold, reminder, start, and
 * closing a booking left open after its end).
 */
import type { Appointment, AppointmentNotice } from "../models/scheduling/Appointment";
import { type EndedBookingStatus, HOLD_EXPIRED_REASON, LIVE_APPOINTMENT_STATUSES } from "./constants";
import { isoInZone } from "./timezone";

const MINUTE_MS = 60_000;

export type TimelineStep =
  | { kind: "hold"; at: number }
  | { kind: "reminder"; at: number; offsetMinutes: number; startsAt: number }
  /** Asks the linked conversation to confirm, cancel or move a booking still only scheduled (offerChoice.ts takes the answer). */
  | { kind: "confirmation_request"; at: number; minutesBefore: number; startsAt: number }
  /** Nothing to do but end: a live booking's workflow runs until its appointment starts. */
  | { kind: "start"; at: number }
  /** The account's ended_booking_status for a booking still live its grace after its end. */
  | { kind: "close"; at: number; status: EndedBookingStatus };

/** The account's setting for bookings left open after their end; null when it leaves them be. */
export interface EndedBookingPlan {
  status: EndedBookingStatus;
  graceMinutes: number;
}

type TimedAppointment = Pick<
  Appointment,
  | "status"
  | "starts_at"
  | "ends_at"
  | "start_set_at"
  | "hold_expires_at"
  | "prepaid_amount"
  | "settlement_amount"
  | "conversation_id"
  | "resource_id"
  | "cancellation_reason"
>;

export const isLive = (appointment: Pick<Appointment, "status">) => LIVE_APPOINTMENT_STATUSES.includes(appointment.status);

export const reminderKey = (offsetMinutes: number, startsAt: number) => `reminder:${offsetMinutes}:${new Date(startsAt).toISOString()}`;
export const confirmationRequestKey = (startsAt: number) => `confirmation_request:${new Date(startsAt).toISOString()}`;

/**
 * The earliest step ahead of a live booking: before its start, its hold while nothing is paid, each
 * reminder not yet sent whose time had not already passed when the start was set (a booking made an
 * hour ahead gets no 24-hour reminder), the confirmation request likewise (only while it is scheduled,
 * not yet confirmed), and its start; then, if the account says so, closing it its grace after its end
 * (at once when that has passed).
 */
export function nextStep(
  appointment: TimedAppointment,
  offsetsMinutes: readonly number[],
  sentKeys: ReadonlySet<string>,
  now: number,
  ended: EndedBookingPlan | null = null,
  confirmationMinutes: number | null = null,
): TimelineStep | undefined {
  const startsAt = appointment.starts_at.getTime();
  if (!isLive(appointment)) return undefined;
  const close: TimelineStep | undefined = ended
    ? { kind: "close", at: appointment.ends_at.getTime() + ended.graceMinutes * MINUTE_MS, status: ended.status }
    : undefined;
  if (startsAt <= now) return close;
  const steps: TimelineStep[] = [];
  if (appointment.hold_expires_at && appointment.prepaid_amount + appointment.settlement_amount === 0) {
    steps.push({ kind: "hold", at: appointment.hold_expires_at.getTime() });
  }
  if (appointment.conversation_id) {
    for (const offsetMinutes of offsetsMinutes) {
      const at = startsAt - offsetMinutes * MINUTE_MS;
      if (at >= appointment.start_set_at.getTime() && !sentKeys.has(reminderKey(offsetMinutes, startsAt)))
        steps.push({ kind: "reminder", at, offsetMinutes, startsAt });
    }
  }
  if (appointment.conversation_id && appointment.status === "scheduled" && confirmationMinutes) {
    const at = startsAt - confirmationMinutes * MINUTE_MS;
    if (at >= appointment.start_set_at.getTime() && !sentKeys.has(confirmationRequestKey(startsAt)))
      steps.push({ kind: "confirmation_request", at, minutesBefore: confirmationMinutes, startsAt });
  }
  steps.push({ kind: "start", at: startsAt });
  // Stable: on a tie the hold (listed first) goes before a reminder it would make pointless.
  return steps.reduce((earliest, step) => (step.at < earliest.at ? step : earliest));
}

export type Announcement = { kind: "confirmation" | "rescheduled" | "cancelled"; key: string };

const ANNOUNCEMENT_KINDS = new Set(["confirmation", "rescheduled", "cancelled"]);

/**
 * The message a linked conversation is owed about the booking itself, given what was announced
 * before: a confirmation once it is booked (again, after a cancellation), a notice when it moves, and
 * one when it is cancelled, if the client had been told of it or the hold ran out. Keys start with a
 * sequence number so that a state announced, left and re-entered is announced again.
 */
export function announcementDue(
  appointment: TimedAppointment,
  notices: readonly Pick<AppointmentNotice, "kind" | "key">[],
  now: number,
): Announcement | undefined {
  if (!appointment.conversation_id) return undefined;
  const announcements = notices.filter((n) => ANNOUNCEMENT_KINDS.has(n.kind));
  const last = announcements.at(-1);
  const sequence = announcements.length + 1;
  if (isLive(appointment)) {
    if (appointment.starts_at.getTime() <= now) return undefined;
    const booked = `${appointment.resource_id}@${appointment.starts_at.toISOString()}`;
    if (!last || last.kind === "cancelled") return { kind: "confirmation", key: `${sequence}:confirmation:${booked}` };
    if (last.key.endsWith(`:${booked}`)) return undefined;
    return { kind: "rescheduled", key: `${sequence}:rescheduled:${booked}` };
  }
  if (appointment.status !== "cancelled" || last?.kind === "cancelled") return undefined;
  if (!last && appointment.cancellation_reason !== HOLD_EXPIRED_REASON) return undefined;
  return { kind: "cancelled", key: `${sequence}:cancelled` };
}

/** "2026-03-02 09:00 (Asia/Almaty)": a start as the clinic's wall clock shows it. */
export function localTimeText(ms: number, timeZone: string): string {
  const iso = isoInZone(ms, timeZone);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} (${timeZone})`;
}

export interface NoticeContext {
  resourceName: string;
  timeZone: string;
  startsAt: number;
  holdExpiresAt: number | null;
  cancellationReason: string | null;
}

/** The text posted into the conversation for each kind of notice. */
export function noticeText(kind: "confirmation" | "rescheduled" | "cancelled" | "reminder", c: NoticeContext): string {
  const when = localTimeText(c.startsAt, c.timeZone);
  switch (kind) {
    case "confirmation":
      return c.holdExpiresAt
        ? `Your appointment with ${c.resourceName} on ${when} is booked. Please make the prepayment by ${localTimeText(c.holdExpiresAt, c.timeZone)} to keep it.`
        : `Your appointment with ${c.resourceName} on ${when} is confirmed.`;
    case "rescheduled":
      return `Your appointment with ${c.resourceName} has been moved to ${when}.`;
    case "reminder":
      return `Reminder: your appointment with ${c.resourceName} is on ${when}.`;
    case "cancelled":
      return c.cancellationReason === HOLD_EXPIRED_REASON
        ? `Your appointment with ${c.resourceName} on ${when} has been cancelled because the prepayment was not received in time. The time is free again; write to us to book anew.`
        : `Your appointment with ${c.resourceName} on ${when} has been cancelled.`;
  }
}
