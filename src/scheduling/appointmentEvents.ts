/**
 * Which webhook events a committed change of an appointment raises, and what each carries
 * (docs/scheduling.md "Events"): every change is appointment.updated with its changed attributes;
 * beside it, as the scheduling fork does, the status event when the status moved to cancelled,
 * completed or no_show, and appointment.rescheduled when its time or resource moved.
 */
import type { AppointmentEventName } from "../events/outbox";

/** `[{attribute: {previous_value, current_value}}]`, as Chatwoot's *_updated events carry them. */
export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>[];

const STATUS_EVENTS: Partial<Record<string, AppointmentEventName>> = {
  cancelled: "appointment.cancelled",
  completed: "appointment.completed",
  no_show: "appointment.no_show",
};

/** Where a booking is: what appointment.rescheduled reports before and after a move. */
const PLACEMENT_KEYS = ["resource_id", "starts_at", "ends_at", "duration_min"] as const;

export interface ChangeEvent {
  name: AppointmentEventName;
  /** Added to the presented appointment in the event's payload. */
  extra: Record<string, unknown>;
}

type Shown = Record<string, unknown>;

export function changeEvents(before: Shown | undefined, after: Shown, changed: ChangedAttributes): ChangeEvent[] {
  if (!before) return [{ name: "appointment.created", extra: {} }];
  if (!changed.length) return [];
  const events: ChangeEvent[] = [{ name: "appointment.updated", extra: { changed_attributes: changed } }];
  const statusEvent = before.status !== after.status ? STATUS_EVENTS[after.status as string] : undefined;
  if (statusEvent) events.push({ name: statusEvent, extra: { changed_attributes: changed, previous_status: before.status } });
  const place = (shown: Shown) => Object.fromEntries(PLACEMENT_KEYS.map((key) => [key, shown[key]]));
  if (PLACEMENT_KEYS.slice(0, 3).some((key) => before[key] !== after[key])) {
    events.push({ name: "appointment.rescheduled", extra: { changed_attributes: changed, previous: place(before), current: place(after) } });
  }
  return events;
}
