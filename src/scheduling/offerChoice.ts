/**
 * What an offer's workflow does when the contact chooses, or when nobody does in time. Each step
 * locks the offer and acts only while it is open, in one transaction with the booking it makes, so
 * a retried activity or a repeated choice changes nothing. A slot is booked through the same path
 * as the API's (createAppointment, with the offer and the choice as the idempotency key); a slot
 * taken meanwhile gets a fresh offer instead of a silent failure.
 */
import type { Knex } from "knex";
import { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { Appointment } from "../models/scheduling/Appointment";
import { type OfferItem, Offer } from "../models/scheduling/Offer";
import { presentAppointment } from "../presenters/scheduling/appointments";
import { recordEvent } from "../events/outbox";
import { findAppointmentView } from "./appointmentRecords";
import { type Booker, cancelAppointment, createAppointment, updateAppointment } from "./appointments";
import { LIVE_APPOINTMENT_STATUSES } from "./constants";
import { SchedulingError } from "./errors";
import { insertOffer, OFFER_INTRO, postOfferMessage, searchItems } from "./offers";

const MINUTE_MS = 60_000;
/** Why a booking was cancelled when its contact said so in answer to a confirmation request. */
export const CONTACT_CANCELLED_REASON = "cancelled_by_contact";
export const OFFER_EXPIRED_TEXT = "The times offered have expired. Write to us and we will offer new ones.";
const TAKEN_TEXT = "Sorry, that time was just taken. Please choose another one:";
const NOTHING_FREE_TEXT = "Sorry, no other time is free right now. Write to us and we will find one.";

/** What a choice came to; "ignored" leaves the offer open (a token it never offered). */
export type ChoiceOutcome = "booked" | "answered" | "replaced" | "expired" | "ignored" | "closed";

interface Open {
  trx: Knex.Transaction;
  offer: Offer;
  account: Account;
  conversation: Conversation;
}

/** The offer under its row lock with its live account and conversation, while it is still open. */
async function lockOpen(trx: Knex.Transaction, offerId: number): Promise<Open | undefined> {
  const offer = await Offer.query(trx).findById(offerId).forUpdate();
  if (offer?.status !== "open") return undefined;
  const account = await Account.findLive(offer.account_id, trx);
  const conversation = account && (await Conversation.query(trx).findById(offer.conversation_id));
  return account && conversation ? { trx, offer, account, conversation } : undefined;
}

/** The service acts for the contact; the user who offered the slots, if one did, is named as the booking's creator. */
const bookerOf = ({ account }: Open): Booker => ({ account, user: null });

/** A fresh offer of the same kind of slots, or (when none is free) a message saying so. */
async function offerAgain(open: Open, content: string, chosen: string | null): Promise<ChoiceOutcome> {
  const { trx, offer, account, conversation } = open;
  const request = offer.request;
  const items = await searchItems(trx, account, request);
  if (!items.length) {
    await postOfferMessage(trx, conversation, NOTHING_FREE_TEXT, null, null);
    await offer.$query(trx).patch({ status: "expired", chosen_token: chosen });
    return "expired";
  }
  const fresh = await insertOffer(
    trx,
    conversation,
    { kind: "slots", items, request, content, expiresAt: new Date(Date.now() + request.expires_in_minutes * MINUTE_MS), appointmentId: offer.appointment_id },
    null,
  );
  await offer.$query(trx).patch({ status: "replaced", replaced_by_id: fresh.id, chosen_token: chosen });
  return "replaced";
}

/** Books the slot (or moves the booking the offer is about to it); a slot no longer bookable gets a fresh offer. */
async function bookSlot(open: Open, item: OfferItem): Promise<ChoiceOutcome> {
  const { trx, offer, conversation } = open;
  const times = { resource_id: item.resource_id!, starts_at: new Date(item.starts_at!), ends_at: new Date(item.ends_at!) };
  let appointmentId: number;
  if (offer.appointment_id) {
    // "Another time" for a booking that has been cancelled or closed meanwhile: there is nothing left to move.
    const current = await Appointment.query(trx).findById(offer.appointment_id).select("status");
    if (!current || !LIVE_APPOINTMENT_STATUSES.includes(current.status)) {
      await offer.$query(trx).patch({ status: "expired", chosen_token: item.token });
      return "expired";
    }
  }
  try {
    if (offer.appointment_id) {
      appointmentId = (await updateAppointment(trx, bookerOf(open), offer.appointment_id, times)).appointment.id;
    } else {
      const { view } = await createAppointment(trx, bookerOf(open), {
        ...times,
        service_id: offer.request.service_id ?? null,
        contact_id: offer.contact_id,
        conversation_id: conversation.display_id,
        created_by_id: offer.created_by_type === "User" ? offer.created_by_id : null,
        source: "offer",
        idempotency_key: `offer-${offer.id}-${item.token}`,
      });
      appointmentId = view.appointment.id;
    }
  } catch (err) {
    if (!isRefusal(err)) throw err;
    return offerAgain(open, TAKEN_TEXT, item.token);
  }
  await offer.$query(trx).patch({ status: "booked", chosen_token: item.token, appointment_id: appointmentId });
  return "booked";
}

/** The booking rules refused (the slot was taken, the notice passed, the resource stopped offering it), or the database did. */
function isRefusal(err: unknown): boolean {
  if (err instanceof SchedulingError) return err.status === 409 || err.status === 422;
  const pg = (err as { nativeError?: { code?: string } }).nativeError ?? (err as { code?: string });
  return pg?.code === "23P01";
}

/** Confirms, cancels (the contact's reason) or offers other times for the booking a confirmation request is about. */
async function answerConfirmation(open: Open, item: OfferItem): Promise<ChoiceOutcome> {
  const { trx, offer, account, conversation } = open;
  const view = offer.appointment_id ? await findAppointmentView(trx, account.id, offer.appointment_id).catch(() => undefined) : undefined;
  const appointment = view?.appointment;
  await offer.$query(trx).patch({ status: "answered", chosen_token: item.token });
  if (!appointment || !LIVE_APPOINTMENT_STATUSES.includes(appointment.status)) return "answered";
  try {
    if (item.answer === "confirm" && appointment.status === "scheduled") {
      await updateAppointment(trx, bookerOf(open), appointment.id, { status: "confirmed" });
    } else if (item.answer === "cancel") {
      await cancelAppointment(trx, bookerOf(open), appointment.id, CONTACT_CANCELLED_REASON);
    } else if (item.answer === "another_time") {
      const request = {
        service_id: appointment.service_id,
        duration_min: appointment.service_id ? null : appointment.duration_min,
        resource_ids: appointment.service_id ? undefined : [appointment.resource_id],
        count: 5,
        expires_in_minutes: 60,
      };
      const items = await searchItems(trx, account, request);
      if (!items.length) await postOfferMessage(trx, conversation, NOTHING_FREE_TEXT, null, null);
      else {
        const expiresAt = new Date(Date.now() + request.expires_in_minutes * MINUTE_MS);
        await insertOffer(trx, conversation, { kind: "slots", items, request, content: OFFER_INTRO, expiresAt, appointmentId: appointment.id }, null);
      }
    }
  } catch (err) {
    // A change the booking no longer allows (it started meanwhile): the answer is kept, the booking left as it is.
    if (!isRefusal(err)) throw err;
  }
  return "answered";
}

/** The contact chose the item with this token. */
export async function chooseOffer(db: Knex, offerId: number, token: string): Promise<ChoiceOutcome> {
  return db.transaction(async (trx) => {
    const open = await lockOpen(trx, offerId);
    if (!open) return "closed";
    const item = open.offer.slots.find((candidate) => candidate.token === token);
    if (!item) return "ignored";
    return open.offer.kind === "confirmation" ? answerConfirmation(open, item) : bookSlot(open, item);
  });
}

/**
 * Nobody chose in time: the offer is expired. Slots get a message saying so; a confirmation request
 * leaves the booking as it is and, if it is still only scheduled, raises appointment.confirmation_unanswered.
 */
export async function expireOffer(db: Knex, offerId: number): Promise<ChoiceOutcome> {
  return db.transaction(async (trx) => {
    const open = await lockOpen(trx, offerId);
    if (!open) return "closed";
    const { offer, account, conversation } = open;
    await offer.$query(trx).patch({ status: "expired" });
    if (offer.kind === "slots") {
      await postOfferMessage(trx, conversation, OFFER_EXPIRED_TEXT, null, null);
      return "expired";
    }
    const view = offer.appointment_id ? await findAppointmentView(trx, account.id, offer.appointment_id).catch(() => undefined) : undefined;
    // Confirmed or cancelled by other means meanwhile, the booking no longer waits for an answer.
    if (view?.appointment.status === "scheduled") {
      const name = "appointment.confirmation_unanswered";
      await recordEvent(trx, {
        accountId: account.id,
        name,
        payload: { event: name, ...presentAppointment(view.appointment, view.payments, view.expense), account: { id: account.id, name: account.name } },
      });
    }
    return "expired";
  });
}

/** Whether the offer's workflow still has anything to wait for, and until when. */
export async function offerState(db: Knex, offerId: number): Promise<{ open: boolean; expiresAt: number }> {
  const offer = await Offer.query(db).findById(offerId);
  return { open: offer?.status === "open", expiresAt: offer?.expires_at.getTime() ?? 0 };
}
