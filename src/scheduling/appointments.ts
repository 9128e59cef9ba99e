/**
 * Booking: creating, changing, cancelling and deleting appointments (the fork's UpsertService,
 * reference/scheduling.md §5–7). One transaction per change, under the appointment's row lock:
 * the availability check through the engine the calendar uses, the money rules, the payment
 * journal and expense, and the webhook event. The exclusion constraint on live bookings backs the
 * check, so two racing bookings of one slot end with one appointment and one 409 SLOT_CONFLICT.
 */
import type { Knex } from "knex";
import { transactionRetryingDeadlocks } from "../db/deadlocks";
import { Account } from "../models/Account";
import { AccountUser } from "../models/AccountUser";
import { Contact } from "../models/Contact";
import { Conversation } from "../models/Conversation";
import { Inbox } from "../models/Inbox";
import { Appointment } from "../models/scheduling/Appointment";
import { Resource } from "../models/scheduling/Resource";
import { SchedulingSettings } from "../models/scheduling/SchedulingSettings";
import { Service, ServicePrice } from "../models/scheduling/Service";
import type { User } from "../models/User";
import { createConversation } from "../services/newConversation";
import { findAppointmentView, loadViews, lockAppointment, recordAppointmentChange, type AppointmentView } from "./appointmentRecords";
import { checkBooking } from "./availability";
import {
  type AppointmentStatus,
  HOLD_EXPIRED_REASON,
  LIVE_APPOINTMENT_STATUSES,
  MAX_DURATION_MINUTES,
  MIN_DURATION_MINUTES,
  type PaymentStatus,
} from "./constants";
import { bookingBlocked, invalidAttribute, notFound, refused, SchedulingError } from "./errors";
import { syncFinance } from "./finance";
import { normalizeIdentifier } from "./iin";
import { derivePaymentStatus, type Pricing, receivedOf, resolvePricing } from "./money";
import { pricingLookedUp, priceReplaced } from "./moveMoney";
import { loadScheduleRows, scheduleOf } from "./schedules";
import { checks } from "./validation";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

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
  starts_at?: Date;
  ends_at?: Date;
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
  hold_until?: Date;
  /** On a move: take the new resource's price instead of keeping the booked one (moveMoney.ts). */
  reprice?: boolean;
}

/** Who books: the account, and the user (none when the service itself acts, as when a hold expires). */
export interface Booker {
  account: Account;
  user: User | null;
}

const blankToNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
const has = <K extends keyof AppointmentInput>(input: AppointmentInput, key: K) => key in input && input[key] !== undefined;

async function mustFind<T>(row: PromiseLike<T | undefined>, what: string): Promise<T> {
  const found = await row;
  if (!found) throw notFound(what);
  return found;
}

/** A date the contact's custom attributes hold, if it is one. */
const attributeDate = (value: unknown) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);
const attributeString = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

interface Related {
  resource: Resource;
  contact: Contact | null;
  service: Service | null;
  conversation: Conversation | null;
  inbox: Inbox | null;
}

/** The records the booking names, each one of the account's (404 otherwise); absent ones stay as stored. */
async function loadRelated(trx: Knex.Transaction, accountId: number, existing: Appointment | undefined, input: AppointmentInput): Promise<Related> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Objection model class; each call site's loader types the row
  const ofAccount = <M extends { query(db: Knex): any }>(model: M, id: number) => model.query(trx).findOne({ account_id: accountId, id });
  const optional = async <T>(
    key: keyof AppointmentInput,
    stored: number | null | undefined,
    load: (id: number) => PromiseLike<T | undefined>,
    what: string,
  ) => {
    const id = key in input ? (input[key] as number | null) : stored;
    return id ? mustFind(load(id), what) : null;
  };
  const resourceId = input.resource_id ?? existing!.resource_id;
  const resource = await mustFind<Resource>(ofAccount(Resource, resourceId), "Resource");
  const contact = await optional<Contact>("contact_id", existing?.contact_id, (id) => ofAccount(Contact, id), "Contact");
  const service = await optional<Service>("service_id", existing?.service_id, (id) => ofAccount(Service, id), "Service");
  const conversation =
    "conversation_id" in input
      ? input.conversation_id
        ? await mustFind(Conversation.findByDisplayId(accountId, input.conversation_id, trx), "Conversation")
        : null
      : existing?.conversation_id
        ? ((await Conversation.query(trx).findById(existing.conversation_id)) ?? null)
        : null;
  const inbox = input.inbox_id ? await mustFind(Inbox.findInAccount(accountId, input.inbox_id, trx), "Inbox") : null;
  if (input.created_by_id && !(await AccountUser.query(trx).findOne({ account_id: accountId, user_id: input.created_by_id }))) throw notFound("User");
  return { resource, contact, service, conversation, inbox };
}

/** The booked interval: ends_at, else the start plus the requested, the service's or the resource's length. */
function timesOf(existing: Appointment | undefined, input: AppointmentInput, related: Related) {
  const startsAt = input.starts_at ?? existing!.starts_at;
  let endsAt: Date;
  if (input.ends_at) endsAt = input.ends_at;
  else if (input.duration_min) endsAt = new Date(startsAt.getTime() + input.duration_min * MINUTE_MS);
  else if (existing) endsAt = new Date(startsAt.getTime() + (existing.ends_at.getTime() - existing.starts_at.getTime()));
  else endsAt = new Date(startsAt.getTime() + (related.service?.duration_min ?? related.resource.slot_duration_min) * MINUTE_MS);
  if (endsAt <= startsAt) throw new SchedulingError(422, "VALIDATION_ERROR", "ends_at must be after starts_at", { ends_at: ["must be after starts_at"] });
  // An explicit duration is kept as given, as the fork does; otherwise it is the interval's, at least 5.
  const durationMin = input.duration_min ?? Math.max(Math.round((endsAt.getTime() - startsAt.getTime()) / MINUTE_MS), MIN_DURATION_MINUTES);
  if (durationMin > MAX_DURATION_MINUTES) throw invalidAttribute("duration_min", `must be less than or equal to ${MAX_DURATION_MINUTES}`);
  return { startsAt, endsAt, durationMin };
}

/** The client fields: the request's, else what is stored, else the contact's (reference §6). */
function clientOf(existing: Appointment | undefined, input: AppointmentInput, contact: Contact | null) {
  const attributes = contact?.custom_attributes ?? {};
  const pick = <T>(key: keyof AppointmentInput, given: () => T, fallback: () => T) => (key in input ? given() : fallback());
  const clientName = pick(
    "client_name",
    () => blankToNull(input.client_name),
    () => existing?.client_name || blankToNull(contact?.name) || blankToNull(contact?.email) || blankToNull(contact?.phone_number),
  );
  if (!clientName) throw invalidAttribute("client_name", "is required");
  const identifier = pick(
    "client_identifier",
    () => blankToNull(input.client_identifier),
    () => existing?.client_identifier ?? contact?.identifier ?? attributeString(attributes.iin),
  );
  return {
    client_name: clientName,
    client_phone: pick(
      "client_phone",
      () => blankToNull(input.client_phone),
      () => existing?.client_phone ?? contact?.phone_number ?? null,
    ),
    client_identifier: identifier === null ? null : normalizeIdentifier(identifier),
    client_birth_date: pick(
      "client_birth_date",
      () => input.client_birth_date ?? null,
      () => existing?.client_birth_date ?? attributeDate(attributes.birth_date),
    ),
    client_gender: pick(
      "client_gender",
      () => blankToNull(input.client_gender),
      () => existing?.client_gender ?? attributeString(attributes.gender),
    ),
    company_id: pick(
      "company_id",
      () => input.company_id ?? null,
      () => existing?.company_id ?? (typeof attributes.company_id === "number" ? attributes.company_id : null),
    ),
  };
}

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

/**
 * Until when a new booking holds its slot for a prepayment: hold_until, else hold_minutes from now,
 * else the account's hold when the service requires prepayment; never past the start.
 */
async function holdOf(
  trx: Knex.Transaction,
  account: Account,
  input: AppointmentInput,
  service: Service | null,
  startsAt: Date,
  now: number,
): Promise<Date | null> {
  if (input.hold_until && input.hold_minutes) throw invalidAttribute("hold_until", "cannot be given together with hold_minutes");
  if (input.hold_until) {
    if (input.hold_until.getTime() <= now) throw invalidAttribute("hold_until", "must be in the future");
    if (input.hold_until > startsAt) throw invalidAttribute("hold_until", "must not be after starts_at");
    return input.hold_until;
  }
  const minutes = input.hold_minutes ?? (service?.prepayment_required ? (await SchedulingSettings.of(account.id, trx)).prepayment_hold_minutes : undefined);
  if (!minutes) return null;
  return new Date(Math.min(now + minutes * MINUTE_MS, startsAt.getTime()));
}

/** Refuses an interval the calendar would not offer (reference §5 order and codes). */
async function checkAvailability(trx: Knex.Transaction, accountId: number, resource: Resource, startsAt: Date, endsAt: Date, excludeId: number | undefined) {
  const range = { start: startsAt.getTime() - DAY_MS, end: endsAt.getTime() + DAY_MS };
  const rows = await loadScheduleRows(accountId, [resource.id], range, trx);
  const verdict = checkBooking(scheduleOf(resource, rows), { start: startsAt.getTime(), end: endsAt.getTime(), excludeAppointmentId: excludeId });
  if (verdict.bookable) return;
  if (verdict.code === "VALIDATION_ERROR") throw new SchedulingError(422, "VALIDATION_ERROR", verdict.message);
  throw bookingBlocked(verdict.code, verdict.message);
}

/**
 * external_ref and idempotency_key are unique per account. Bookings claiming the same value take
 * turns (a transaction lock on it), so a racing one sees the winner's row and answers 409 with the
 * duplicate's code rather than whichever constraint the database happens to trip first.
 */
async function checkUnique(
  trx: Knex.Transaction,
  accountId: number,
  existing: Appointment | undefined,
  column: "external_ref" | "idempotency_key",
  value: string | null,
) {
  if (!value || value === existing?.[column]) return;
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))", [`scheduling_appointments.${column}`, `${accountId}:${value}`]);
  const taken = await trx(Appointment.tableName)
    .where({ account_id: accountId, [column]: value })
    .first("id");
  if (!taken) return;
  if (column === "external_ref") throw new SchedulingError(409, "DUPLICATE_EXTERNAL_REF", "external_ref has already been taken");
  throw new SchedulingError(409, "DUPLICATE_IDEMPOTENCY_KEY", "idempotency_key has already been used");
}

interface SaveOptions {
  /** Why a cancellation happened (the cancel endpoint's reason, or the expired hold). */
  cancellationReason?: string | null;
}

/**
 * The fork's UpsertService#perform, in the caller's transaction: resolves the booking as it will be
 * saved, checks it (unless it is cancelled), writes it with its journal and expense, and records
 * its event. `existing` must be locked by the caller.
 */
async function saveAppointment(
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
  // A cancelled payment sticks until the client says otherwise; cancelling the booking cancels it.
  const paymentCancelled = has(input, "payment_status")
    ? input.payment_status === "cancelled"
    : status === "cancelled" || existing?.payment_status === "cancelled";
  const paymentStatus = derivePaymentStatus({ ...pricing, ...amounts, refunded_amount: existing?.refunded_amount ?? 0 }, paymentCancelled);

  const externalRef = "external_ref" in input ? blankToNull(input.external_ref) : (existing?.external_ref ?? null);
  const idempotencyKey = "idempotency_key" in input ? blankToNull(input.idempotency_key) : (existing?.idempotency_key ?? null);

  await checkUnique(trx, account.id, existing, "external_ref", externalRef);
  await checkUnique(trx, account.id, existing, "idempotency_key", idempotencyKey);
  if (status !== "cancelled") await checkAvailability(trx, account.id, related.resource, startsAt, endsAt, existing?.id);

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
  const hold = existing ? existing.hold_expires_at : await holdOf(trx, account, input, related.service, startsAt, now);
  const wasCancelled = existing?.status === "cancelled";
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
  };
  const saved = existing ? await existing.$query(trx).patchAndFetch(row) : await Appointment.query(trx).insert(row).returning("*");
  await syncFinance(trx, saved, booker.user?.id ?? null, !existing);
  return recordAppointmentChange(trx, account, before, saved.id);
}

export interface CreateResult {
  view: AppointmentView;
  /** False when the idempotency_key named a booking made before: it is returned as it is, unchecked. */
  created: boolean;
}

export async function createAppointment(db: Knex, booker: Booker, input: AppointmentInput): Promise<CreateResult> {
  const key = blankToNull(input.idempotency_key);
  if (key) {
    const known = await Appointment.ofAccount(booker.account.id, db).findOne({ idempotency_key: key });
    if (known) return { view: (await loadViews(db, [known]))[0]!, created: false };
  }
  return { view: await transactionRetryingDeadlocks(db, (trx) => saveAppointment(trx, booker, undefined, input)), created: true };
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

export interface AppointmentFilters {
  resource_ids?: number[];
  status?: string[];
  payment_status?: string[];
  contact_id?: number;
  from?: Date;
  to?: Date;
}

export interface Page {
  page: number;
  per_page: number;
}

/** The account's appointments starting in [from, to) that match the filters, by start then id, one page of them, and how many match. */
export async function listAppointments(
  db: Knex,
  accountId: number,
  filters: AppointmentFilters,
  page: Page,
): Promise<{ views: AppointmentView[]; count: number }> {
  const matching = Appointment.ofAccount(accountId, db);
  if (filters.resource_ids) matching.whereIn("resource_id", filters.resource_ids);
  if (filters.status) matching.whereIn("status", filters.status);
  if (filters.payment_status) matching.whereIn("payment_status", filters.payment_status);
  if (filters.contact_id) matching.where("contact_id", filters.contact_id);
  if (filters.from) matching.where("starts_at", ">=", filters.from);
  if (filters.to) matching.where("starts_at", "<", filters.to);
  const [count, rows] = await Promise.all([
    matching.clone().clearSelect().resultSize(),
    matching
      .orderBy([{ column: "starts_at" }, { column: "id" }])
      .offset((page.page - 1) * page.per_page)
      .limit(page.per_page),
  ]);
  return { views: await loadViews(db, rows), count };
}
