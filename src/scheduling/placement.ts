/**
 * When a change of a booking is a new placement, and the rules only a placement must pass. A
 * booking made under yesterday's schedule stays valid: completing it, annotating it or fixing its
 * client does not re-check it against today's rules. Only a new booking, a move (time or resource)
 * or the reopening of a cancelled one takes a slot anew, and only then are the calendar, the
 * resource being active, the service being offered by the resource and the minimum notice checked.
 */
import type { Knex } from "knex";
import type { Appointment } from "../models/scheduling/Appointment";
import type { Resource } from "../models/scheduling/Resource";
import { type Service, ServicePrice } from "../models/scheduling/Service";
import type { AppointmentStatus } from "./constants";
import { checkBooking } from "./availability";
import { bookingBlocked, SchedulingError } from "./errors";
import { loadScheduleRows, scheduleOf } from "./schedules";

const DAY_MS = 24 * 60 * 60_000;

export interface Placement {
  /** New, moved or reopened: the booking takes a slot anew. */
  placed: boolean;
  /** Its start is new (a new booking, a move in time, a reopening): the minimum notice applies. */
  startSet: boolean;
  /** Its time or resource changed (appointment.rescheduled). */
  moved: boolean;
  /** Its resource or service changed (or it is new): the service must be offered by the resource. */
  linked: boolean;
}

export function placementOf(
  existing: Appointment | undefined,
  next: { resourceId: number; serviceId: number | null; startsAt: Date; endsAt: Date; status: AppointmentStatus },
): Placement {
  const live = next.status !== "cancelled";
  if (!existing) return { placed: live, startSet: live, moved: false, linked: true };
  const startMoved = existing.starts_at.getTime() !== next.startsAt.getTime();
  const moved = startMoved || existing.ends_at.getTime() !== next.endsAt.getTime() || existing.resource_id !== next.resourceId;
  const reopened = existing.status === "cancelled" && live;
  return {
    placed: live && (moved || reopened),
    startSet: live && (startMoved || reopened),
    moved,
    linked: existing.resource_id !== next.resourceId || existing.service_id !== next.serviceId,
  };
}

/** An inactive resource keeps its bookings but takes no new ones. */
export function checkResourceBookable(resource: Resource): void {
  if (!resource.active) {
    throw new SchedulingError(422, "RESOURCE_NOT_AVAILABLE_FOR_SCHEDULING", "The resource is not available for scheduling");
  }
}

/** A service is booked with a resource only through an active, positive price of it for that resource. */
export async function checkServiceOffered(db: Knex, service: Service, resource: Resource): Promise<void> {
  const price = await ServicePrice.query(db).findOne({ service_id: service.id, resource_id: resource.id, active: true }).where("price", ">", 0);
  if (!service.active || !price) {
    throw new SchedulingError(422, "SERVICE_NOT_AVAILABLE_FOR_RESOURCE", "Service is not available for the selected resource");
  }
}

/** A query of the ids of the resources that offer the service (an active, positive price of it, the service active). */
export function resourcesOffering(db: Knex, serviceId: number) {
  return db("scheduling_service_prices as p")
    .join("scheduling_services as s", "s.id", "p.service_id")
    .where({ "p.service_id": serviceId, "p.active": true, "s.active": true })
    .where("p.price", ">", 0)
    .select("p.resource_id");
}

/** The earliest start a new booking or a move may have: now plus the account's minimum notice. */
export const earliestStart = (now: number, noticeMinutes: number) => now + noticeMinutes * 60_000;

/** Refuses a start sooner than the minimum notice allows (a past visit recorded as such is exempt). */
export function checkNotice(startsAt: Date, now: number, noticeMinutes: number): void {
  if (startsAt.getTime() >= earliestStart(now, noticeMinutes)) return;
  const message =
    startsAt.getTime() < now
      ? "starts_at is in the past; record a past visit with record_past_visit"
      : `Appointments must be booked at least ${noticeMinutes} minutes ahead`;
  throw new SchedulingError(409, "MINIMUM_NOTICE_NOT_MET", message);
}

/** Refuses an interval the calendar would not offer (reference §5 order and codes). */
export async function checkAvailability(
  trx: Knex.Transaction,
  accountId: number,
  resource: Resource,
  startsAt: Date,
  endsAt: Date,
  excludeId: number | undefined,
) {
  const range = { start: startsAt.getTime() - DAY_MS, end: endsAt.getTime() + DAY_MS };
  const rows = await loadScheduleRows(accountId, [resource.id], range, trx);
  const verdict = checkBooking(scheduleOf(resource, rows), { start: startsAt.getTime(), end: endsAt.getTime(), excludeAppointmentId: excludeId });
  if (verdict.bookable) return;
  if (verdict.code === "VALIDATION_ERROR") throw new SchedulingError(422, "VALIDATION_ERROR", verdict.message);
  throw bookingBlocked(verdict.code, verdict.message);
}
