/**
 * The appointment's state machine (docs/scheduling.md): a booking is scheduled or confirmed while it
 * holds its slot ahead; it ends completed or no_show once its start has passed, or cancelled at any
 * time before it ends. A cancelled booking may be reopened (its slot is checked again). completed
 * and no_show are final.
 */
import type { AppointmentStatus } from "./constants";
import { SchedulingError } from "./errors";

const NEXT: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  scheduled: ["confirmed", "completed", "no_show", "cancelled"],
  confirmed: ["completed", "no_show", "cancelled"],
  cancelled: ["scheduled", "confirmed"],
  completed: [],
  no_show: [],
};

/** Statuses that say the visit happened or was missed: only once the start has passed. */
const AFTER_START: readonly AppointmentStatus[] = ["completed", "no_show"];

const refuse = (message: string) => new SchedulingError(422, "INVALID_STATUS_TRANSITION", message);

/**
 * Refuses a status the booking cannot take: `from` is the stored status (undefined for a new
 * booking), `startsAt` the start it will have. Staying in a status is always allowed.
 */
export function checkStatusTransition(from: AppointmentStatus | undefined, to: AppointmentStatus, startsAt: Date, now: number): void {
  if (from === to) return;
  if (from === undefined) {
    if (to === "cancelled") throw refuse("A new appointment cannot be cancelled");
  } else if (!NEXT[from].includes(to)) {
    throw refuse(`Cannot change status from ${from} to ${to}`);
  }
  if (AFTER_START.includes(to) && startsAt.getTime() > now) throw refuse(`Cannot mark an appointment ${to} before it starts`);
}
