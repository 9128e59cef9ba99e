/**
 * The prepayment hold: until when an unpaid booking keeps its slot. A new booking gets one from
 * hold_until, hold_minutes or (for a service that requires prepayment) the account's setting. A
 * change keeps the hold it has, unless the request sets a new one or the booking is reopened:
 * a reopened booking starts a fresh hold (or none, if its service no longer requires prepayment),
 * never the expired one that cancelled it.
 */
import type { Knex } from "knex";
import type { Appointment } from "../models/scheduling/Appointment";
import { SchedulingSettings } from "../models/scheduling/SchedulingSettings";
import type { Service } from "../models/scheduling/Service";
import { invalidAttribute } from "./errors";

const MINUTE_MS = 60_000;

export interface HoldRequest {
  hold_minutes?: number;
  hold_until?: Date;
}

/** A hold the request asks for, or the account's for a service that requires prepayment; never past the start. */
async function freshHold(trx: Knex, accountId: number, request: HoldRequest, service: Service | null, startsAt: Date, now: number): Promise<Date | null> {
  if (request.hold_until) {
    if (request.hold_until.getTime() <= now) throw invalidAttribute("hold_until", "must be in the future");
    if (request.hold_until > startsAt) throw invalidAttribute("hold_until", "must not be after starts_at");
    return request.hold_until;
  }
  const minutes = request.hold_minutes ?? (service?.prepayment_required ? (await SchedulingSettings.of(accountId, trx)).prepayment_hold_minutes : undefined);
  if (!minutes) return null;
  return new Date(Math.min(now + minutes * MINUTE_MS, startsAt.getTime()));
}

/** The hold the booking will have once saved (before anything received ends it). */
export async function holdOf(
  trx: Knex,
  accountId: number,
  existing: Appointment | undefined,
  reopened: boolean,
  request: HoldRequest,
  service: Service | null,
  startsAt: Date,
  now: number,
): Promise<Date | null> {
  if (request.hold_until && request.hold_minutes) throw invalidAttribute("hold_until", "cannot be given together with hold_minutes");
  const asked = request.hold_until !== undefined || request.hold_minutes !== undefined;
  if (!existing || reopened || asked) return freshHold(trx, accountId, request, service, startsAt, now);
  return existing.hold_expires_at;
}
