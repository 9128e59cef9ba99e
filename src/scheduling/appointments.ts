/**
 * Booking: creating, changing, cancelling and deleting appointments (the fork's UpsertService,
 * docs/scheduling.md). One transaction per change, under the appointment's row lock:
 * the availability check through the engine the calendar uses, the money rules, the payment
 * journal and expense, and the webhook event. The exclusion constraint on live bookings backs the
 * check, so two racing bookings of one slot end with one appointment and one 409 SLOT_CONFLICT.
 */
import type { Knex } from "knex";
import { transactionRetryingDeadlocks } from "../db/deadlocks";
import { Account } from "../models/Account";
import { Appointment } from "../models/scheduling/Appointment";
import { SchedulingSettings } from "../models/scheduling/SchedulingSettings";
import { ServicePrice } from "../models/scheduling/Service";
import type { User } from "../models/User";
import { createConversation } from "../conversations/newConversation";
import { findAppointmentView, loadViews, lockAppointment, recordAppointmentChange, type AppointmentView } from "./appointmentRecords";
import { type AppointmentStatus, HOLD_EXPIRED_REASON, LIVE_APPOINTMENT_STATUSES, type PaymentStatus } from "./constants";
import { invalidAttribute, refused } from "./errors";
import { syncFinance } from "./finance";
import { derivePaymentStatus, type Pricing, receivedOf, resolvePricing } from "./money";
import { pricingLookedUp, priceReplaced } from "./moveMoney";
import { checks } from "./validation";
import { blankToNull, clientOf, loadRelated, type Related, timesOf } from "./appointmentInput";
import { currentRequestId } from "../lib/logger";
import { holdOf } from "./holds";
import { checkUnique, fingerprintOf, replayOf } from "./idempotency";
import { checkAvailability, checkNotice, checkResourceBookable, checkServiceOffered, placementOf } from "./placement";
import { checkStatusTransition } from "./statusTransitions";
import { resolveTime, type TimeInput } from "./wallTime";

/** What a create or update may say; absent keys keep the stored value, as the fork's params.key? checks. */
export interface AppointmentInput {
  resource_id?: number;
  contact_id?: number | null;
  service_id?: number | null;
  company_id?: number | null;
  /** A conversation's display id. */
  conversation_id?: number | null;
  inbox_id?: number;
  created_by_id?: number | null;
  /** Without an offset, wall-clock time in the resource's zone. */
  starts_at?: TimeInput;
  ends_at?: TimeInput;
  duration_min?: number;
  status?: AppointmentStatus;
  appointment_type?: string;
  source?: string;
  client_name?: string | null;
  client_phone?: string | null;
  client_identifier?: string | null;
  client_birth_date?: string | null;
  client_gender?: string | null;
  notes?: string | null;
  client_comment?: string | null;
  external_ref?: string | null;
  idempotency_key?: string | null;
  service_amount?: number;
  prepaid_amount?: number;
  prepaid_payment_method?: string | null;
  settlement_amount?: number;
  settlement_payment_method?: string | null;
  payment_status?: PaymentStatus;
  custom_attributes?: Record<string, unknown>;
  hold_minutes?: number;
  hold_until?: TimeInput;
  /** Staff recording a visit that already happened: the minimum notice does not apply. */
  record_past_visit?: boolean;
  /** On a move: take the new resource's price instead of keeping the booked one (moveMoney.ts). */
  reprice?: boolean;
}

/** Who books: the account, and the user (none when the service itself acts, as when a hold expires). */
export interface Booker {
  account: Account;
  user: User | null;
  /** The automation rule acting, if one is: its changes trigger no rules (the loop guard). */
  rule?: { id: number };
}

const has = <K extends keyof AppointmentInput>(input: AppointmentInput, key: K) => key in input && input[key] !== undefined;

/**
 * Price and compensation, copied when the booking is made, moved or re-priced (moveMoney.ts: a
 * move keeps the price); later price changes do not rewrite it. An explicit service_amount always wins.
 */
async function pricingOf(trx: Knex.Transaction, existing: Appointment | undefined, input: AppointmentInput, related: Related) {
  let pricing: Pricing | undefined;
  if (pricingLookedUp(existing, input)) {
    const price = related.service ? await ServicePrice.query(trx).findOne({ service_id: related.service.id, resource_id: related.resource.id }) : undefined;
    pricing = resolvePricing(related.service ?? undefined, price, related.resource);
  }
  let serviceAmount: number;
  if (input.service_amount !== undefined) serviceAmount = input.service_amount;
  else if (pricing?.price !== undefined && priceReplaced(existing, input)) serviceAmount = pricing.price;
  else if (existing && existing.service_amount > 0) serviceAmount = existing.service_amount;
  else throw refused("service_amount is required and must be greater than 0");
  return {
    service_amount: serviceAmount,
    compensation_type_snapshot: pricing ? pricing.compensation.type : existing!.compensation_type_snapshot,
    compensation_value_snapshot: pricing ? pricing.compensation.value : existing!.compensation_value_snapshot,
  };
}

function amountsOf(existing: Appointment | undefined, input: AppointmentInput, serviceAmount: number) {
  const amounts = {
    prepaid_amount: input.prepaid_amount ?? existing?.prepaid_amount ?? 0,
    prepaid_payment_method: "prepaid_payment_method" in input ? (input.prepaid_payment_method ?? null) : (existing?.prepaid_payment_method ?? null),
    settlement_amount: input.settlement_amount ?? existing?.settlement_amount ?? 0,
    settlement_payment_method: "settlement_payment_method" in input ? (input.settlement_payment_method ?? null) : (existing?.settlement_payment_method ?? null),
  };
  const c = checks();
  if (amounts.prepaid_amount > 0 && !amounts.prepaid_payment_method) c.add("prepaid_payment_method", "can't be blank");
  if (amounts.settlement_amount > 0 && !amounts.settlement_payment_method) c.add("settlement_payment_method", "can't be blank");
  c.done();
  // Refunded money stays on the record: the amounts received never drop below it, and only what was kept counts against the price.
  const refunded = existing?.refunded_amount ?? 0;
  const kept = amounts.prepaid_amount + amounts.settlement_amount - refunded;
  if (kept < 0) throw refused("Total received amount cannot be less than the refunded amount");
  if (serviceAmount > 0 && kept > serviceAmount) {
    // A price brought below what was paid (re-priced, another service): the difference goes back first.
    if (existing && serviceAmount < existing.service_amount) throw refused("Total received amount cannot exceed service_amount: refund the difference first");
    throw refused("Total received amount cannot exceed service_amount");
  }
  return amounts;
}

interface SaveOptions {
  /** Why a cancellation happened (the cancel endpoint's reason, or the expired hold). */
  cancellationReason?: string | null;
  /** A new booking's idempotency fingerprint (see idempotency.ts). */
  fingerprint?: string;
}

/**
 * The fork's UpsertService#perform, in the caller's transaction: resolves the booking as it will be
 * saved, checks it (unless it is cancelled), writes it with its journal and expense, and records
 * its event. `existing` must be locked by the caller.
 */
export async function saveAppointment(
  trx: Knex.Transaction,
  booker: Booker,
  existing: Appointment | undefined,
  input: AppointmentInput,
  options: SaveOptions = {},
): Promise<AppointmentView> {
  const { account } = booker;
  const now = Date.now();
  const before = existing ? await findAppointmentView(trx, account.id, existing.id) : undefined;
  const related = await loadRelated(trx, account.id, existing, input);
  const { startsAt, endsAt, durationMin } = timesOf(existing, input, related);
  const client = clientOf(existing, input, related.contact);
  const pricing = await pricingOf(trx, existing, input, related);
  const amounts = amountsOf(existing, input, pricing.service_amount);

  const status = input.status ?? existing?.status ?? "scheduled";
  checkStatusTransition(existing?.status, status, startsAt, now);
  // A cancelled payment sticks until the client says otherwise; cancelling the booking cancels it.
  const paymentCancelled = has(input, "payment_status")
    ? input.payment_status === "cancelled"
    : status === "cancelled" || existing?.payment_status === "cancelled";
  const paymentStatus = derivePaymentStatus({ ...pricing, ...amounts, refunded_amount: existing?.refunded_amount ?? 0 }, paymentCancelled);

  const externalRef = "external_ref" in input ? blankToNull(input.external_ref) : (existing?.external_ref ?? null);
  const idempotencyKey = "idempotency_key" in input ? blankToNull(input.idempotency_key) : (existing?.idempotency_key ?? null);

  await checkUnique(trx, account.id, existing, "external_ref", externalRef);
  await checkUnique(trx, account.id, existing, "idempotency_key", idempotencyKey);
  const placement = placementOf(existing, { resourceId: related.resource.id, serviceId: related.service?.id ?? null, startsAt, endsAt, status });
  if (placement.placed) checkResourceBookable(related.resource);
  if (related.service && status !== "cancelled" && (placement.placed || placement.linked)) await checkServiceOffered(trx, related.service, related.resource);
  if (placement.startSet && !input.record_past_visit && input.source !== "import") {
    checkNotice(startsAt, now, (await SchedulingSettings.of(account.id, trx)).minimum_notice_minutes);
  }
  if (placement.placed) await checkAvailability(trx, account.id, related.resource, startsAt, endsAt, existing?.id);

  let conversation = related.conversation;
  if (!conversation && related.inbox) {
    if (!related.contact) throw invalidAttribute("contact_id", "can't be blank when inbox_id opens a conversation");
    conversation = await createConversation(
      trx,
      { accountId: account.id, inbox: related.inbox, contactInbox: { contactId: related.contact.id } },
      booker.user ? { kind: "user", user: booker.user } : null,
    );
  }

  const received = amounts.prepaid_amount + amounts.settlement_amount;
  const wasCancelled = existing?.status === "cancelled";
  const holdRequest = { hold_minutes: input.hold_minutes, hold_until: input.hold_until && resolveTime(input.hold_until, related.resource.timezone) };
  const hold = await holdOf(trx, account.id, existing, wasCancelled && status !== "cancelled", holdRequest, related.service, startsAt, now);
  const row = {
    account_id: account.id,
    resource_id: related.resource.id,
    contact_id: related.contact?.id ?? null,
    service_id: related.service?.id ?? null,
    conversation_id: conversation?.id ?? null,
    created_by_id: "created_by_id" in input ? (input.created_by_id ?? null) : (existing?.created_by_id ?? booker.user?.id ?? null),
    starts_at: startsAt,
    ends_at: endsAt,
    duration_min: durationMin,
    status,
    appointment_type: input.appointment_type ?? existing?.appointment_type ?? "primary",
    source: input.source ?? existing?.source ?? "manual",
    ...client,
    ...pricing,
    ...amounts,
    payment_status: paymentStatus,
    external_ref: externalRef,
    idempotency_key: idempotencyKey,
    notes: "notes" in input ? (input.notes ?? null) : "client_comment" in input ? (input.client_comment ?? null) : (existing?.notes ?? null),
    custom_attributes: { ...existing?.custom_attributes, ...input.custom_attributes },
    // Anything received ends the hold: the slot is the client's.
    hold_expires_at: received > 0 ? null : hold,
    start_set_at: !existing || existing.starts_at.getTime() !== startsAt.getTime() ? new Date(now) : existing.start_set_at,
    cancelled_at: status !== "cancelled" ? null : wasCancelled ? existing!.cancelled_at : new Date(now),
    cancellation_reason:
      status !== "cancelled" ? null : options.cancellationReason !== undefined ? options.cancellationReason : (existing?.cancellation_reason ?? null),
    idempotency_fingerprint: existing ? existing.idempotency_fingerprint : (options.fingerprint ?? null),
    last_request_id: currentRequestId() ?? existing?.last_request_id ?? null,
  };
  const saved = existing ? await existing.$query(trx).patchAndFetch(row) : await Appointment.query(trx).insert(row).returning("*");
  await syncFinance(trx, saved, booker.user?.id ?? null, !existing);
  return recordAppointmentChange(trx, account, before, saved.id, booker.rule?.id);
}

export interface CreateResult {
  view: AppointmentView;
  /** False when the idempotency_key named a booking made before with the same body: it is returned as it is now. */
  created: boolean;
}

export async function createAppointment(db: Knex, booker: Booker, input: AppointmentInput): Promise<CreateResult> {
  const key = blankToNull(input.idempotency_key);
  const fingerprint = fingerprintOf(input);
  return transactionRetryingDeadlocks(db, async (trx) => {
    const known = key ? await replayOf(trx, booker.account.id, key, fingerprint) : undefined;
    if (known) return { view: (await loadViews(trx, [known]))[0]!, created: false };
    return { view: await saveAppointment(trx, booker, undefined, input, { fingerprint }), created: true };
  });
}

export async function updateAppointment(db: Knex, booker: Booker, id: number, input: AppointmentInput): Promise<AppointmentView> {
  return transactionRetryingDeadlocks(db, async (trx) => saveAppointment(trx, booker, await lockAppointment(trx, booker.account.id, id), input));
}

/** POST …/cancel: the booking and its payment are cancelled, and the slot is free again. */
export async function cancelAppointment(db: Knex, booker: Booker, id: number, reason?: string | null): Promise<AppointmentView> {
  return db.transaction(async (trx) => {
    const existing = await lockAppointment(trx, booker.account.id, id);
    return saveAppointment(
      trx,
      booker,
      existing,
      { status: "cancelled", payment_status: "cancelled" },
      reason !== undefined ? { cancellationReason: blankToNull(reason) } : {},
    );
  });
}

/**
 * The booking saga's compensation when its prepayment hold runs out: only if, under the lock, the
 * booking is still live, still owes everything and still held until exactly that moment, which has
 * passed. Answers whether it cancelled.
 */
export async function expireHold(db: Knex, appointmentId: number, holdExpiresAt: number, now = Date.now()): Promise<boolean> {
  return db.transaction(async (trx) => {
    const owner = await Appointment.query(trx).findById(appointmentId).select("account_id");
    const account = owner && (await Account.findLive(owner.account_id, trx));
    if (!account) return false;
    const appointment = await lockAppointment(trx, account.id, appointmentId);
    if (!LIVE_APPOINTMENT_STATUSES.includes(appointment.status)) return false;
    if (appointment.hold_expires_at?.getTime() !== holdExpiresAt || holdExpiresAt > now || receivedOf(appointment) > 0) return false;
    await saveAppointment(
      trx,
      { account, user: null },
      appointment,
      { status: "cancelled", payment_status: "cancelled" },
      { cancellationReason: HOLD_EXPIRED_REASON },
    );
    return true;
  });
}

export { type AppointmentFilters, listAppointments, type Page } from "./appointmentList";
