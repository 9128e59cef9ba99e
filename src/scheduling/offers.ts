/**
 * Slots offered in a conversation: an offer is a row and an outgoing input_select message written
 * in one transaction, with the internal event that starts its workflow (offerLife.ts), so an offer
 * the API answered for always gets its workflow. What happens when the contact chooses, or nobody
 * does, is in offerChoice.ts.
 */
import type { Knex } from "knex";
import { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { type OfferItem, type OfferKind, type OfferRequest, Offer } from "../models/scheduling/Offer";
import { SchedulingSettings } from "../models/scheduling/SchedulingSettings";
import type { Actor } from "../conversations/activityMessages";
import { inUnit } from "../conversations/unit";
import { recordEvent } from "../events/outbox";
import { insertMessage, type SenderRef } from "../conversations/messages";
import { SchedulingError } from "./errors";
import { freeSlots } from "./freeSlots";
import { slotItems, selectItems } from "./offerItems";
import { earliestStart } from "./placement";
import { checks } from "./validation";
import { resolveTime } from "./wallTime";
import type { OfferFields } from "../schemas/schedulingOffer";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** A search without `to` looks this far ahead of `from`. */
const DEFAULT_RANGE_DAYS = 7;
const MAX_RANGE_DAYS = 31;
export const OFFER_INTRO = "Please choose a time for your appointment:";

/** The internal event that starts (or re-checks) an offer's workflow. */
export const OFFER_OPENED_EVENT = "scheduling_offer_opened";

export interface OfferSearch extends OfferRequest {
  /** Instants (ms); `from` defaults to now, `to` to seven days after `from`. */
  from?: number;
  to?: number;
}

/** The message's sender: the user or bot who asked, none for automation and the service itself. */
function senderOf(actor: Actor): SenderRef | null {
  if (actor?.kind === "user") return { type: "User", id: actor.user.id };
  if (actor?.kind === "agent_bot") return { type: "AgentBot", id: actor.bot.id };
  return null;
}

function creatorOf(actor: Actor): Pick<Offer, "created_by_type" | "created_by_id"> {
  if (actor?.kind === "user") return { created_by_type: "User", created_by_id: actor.user.id };
  if (actor?.kind === "agent_bot") return { created_by_type: "AgentBot", created_by_id: actor.bot.id };
  if (actor?.kind === "automation_rule") return { created_by_type: "AutomationRule", created_by_id: actor.rule.id };
  return { created_by_type: null, created_by_id: null };
}

/** Posts an outgoing message into the conversation (a choice when items are given), in the caller's transaction. */
export async function postOfferMessage(
  trx: Knex.Transaction,
  conversation: Conversation,
  content: string,
  items: OfferItem[] | null,
  actor: Actor,
  contentAttributes: Record<string, unknown> = {},
) {
  const input = items
    ? { content, message_type: "outgoing", content_type: "input_select", content_attributes: { ...contentAttributes, items: selectItems(items) } }
    : { content, message_type: "outgoing", content_attributes: contentAttributes };
  return inUnit(trx, (unit) => insertMessage(unit, conversation, input, senderOf(actor), actor));
}

/** The free slots a search finds now, as offer items; none is an empty list. */
export async function searchItems(db: Knex, account: Pick<Account, "id" | "locale">, search: OfferSearch, now = Date.now()): Promise<OfferItem[]> {
  const settings = await SchedulingSettings.of(account.id, db);
  const start = Math.max(search.from ?? now, now);
  const end = search.to ?? start + DEFAULT_RANGE_DAYS * DAY_MS;
  if (end <= start) return [];
  const slots = await freeSlots(account.id, {
    range: { start, end: Math.min(end, start + MAX_RANGE_DAYS * DAY_MS) },
    serviceId: search.service_id ?? undefined,
    durationMin: search.duration_min ?? undefined,
    resourceIds: search.resource_ids,
    limit: search.count,
    notBefore: earliestStart(now, settings.minimum_notice_minutes),
  });
  return slotItems(slots, account.locale);
}

/** A request's search: times without an offset read in the account's scheduling timezone; 422 for a range the search refuses. */
export async function offerSearchOf(db: Knex, accountId: number, fields: OfferFields): Promise<OfferSearch> {
  const { timezone } = await SchedulingSettings.of(accountId, db);
  const from = fields.from ? resolveTime(fields.from, timezone).getTime() : undefined;
  const to = fields.to ? resolveTime(fields.to, timezone).getTime() : undefined;
  const start = from ?? Date.now();
  const c = checks();
  if (to !== undefined && to <= start) c.add("to", "must be after from");
  else if (to !== undefined && to - start > MAX_RANGE_DAYS * DAY_MS) c.add("to", `must be at most ${MAX_RANGE_DAYS} days after from`);
  c.done();
  return { service_id: fields.service_id, resource_ids: fields.resource_ids, count: fields.count, expires_in_minutes: fields.expires_in_minutes, from, to };
}

export interface NewOffer {
  kind: OfferKind;
  items: OfferItem[];
  request: OfferRequest;
  expiresAt: Date;
  content: string;
  /** The booking it is about: a confirmation request's, or the one "another time" moves. */
  appointmentId?: number | null;
  /** Kept on the message beside its items (an automation action's key). */
  contentAttributes?: Record<string, unknown>;
}

/** Writes the offer, its message and the event that starts its workflow, in the caller's transaction. */
export async function insertOffer(trx: Knex.Transaction, conversation: Conversation, offer: NewOffer, actor: Actor): Promise<Offer> {
  const row = await Offer.query(trx).insertAndFetch({
    account_id: conversation.account_id,
    conversation_id: conversation.id,
    contact_id: conversation.contact_id,
    kind: offer.kind,
    status: "open",
    request: offer.request,
    slots: offer.items,
    appointment_id: offer.appointmentId ?? null,
    expires_at: offer.expiresAt,
    ...creatorOf(actor),
  });
  const message = await postOfferMessage(trx, conversation, offer.content, offer.items, actor, offer.contentAttributes);
  const saved = await row.$query(trx).patchAndFetch({ message_id: message.id });
  await recordEvent(trx, {
    accountId: conversation.account_id,
    name: OFFER_OPENED_EVENT,
    payload: { event: OFFER_OPENED_EVENT, id: saved.id, expires_at: saved.expires_at.toISOString() },
    conversationId: conversation.id,
    inboxId: conversation.inbox_id,
  });
  return saved;
}

export const noFreeSlots = () => new SchedulingError(422, "NO_FREE_SLOTS", "No free slot matches the request");

/** POST conversations/:id/scheduling/offers and the offer_slots action: the free slots, offered in the conversation. */
export async function openOffer(
  db: Knex,
  account: Pick<Account, "id" | "locale">,
  conversation: Conversation,
  search: OfferSearch,
  actor: Actor,
  options: Pick<NewOffer, "appointmentId" | "contentAttributes"> & { afterInsert?: (trx: Knex.Transaction, offer: Offer) => Promise<void> } = {},
): Promise<Offer> {
  const items = await searchItems(db, account, search);
  if (!items.length) throw noFreeSlots();
  const { from: _from, to: _to, ...request } = search;
  const { afterInsert, ...extra } = options;
  return db.transaction(async (trx) => {
    const offer = await insertOffer(
      trx,
      conversation,
      {
        kind: "slots",
        items,
        request,
        expiresAt: new Date(Date.now() + search.expires_in_minutes * MINUTE_MS),
        content: OFFER_INTRO,
        ...extra,
      },
      actor,
    );
    await afterInsert?.(trx, offer);
    return offer;
  });
}

/** The offer as GET shows it. */
export function presentOffer(offer: Offer, conversationDisplayId: number) {
  return {
    id: offer.id,
    kind: offer.kind,
    status: offer.status,
    conversation_id: conversationDisplayId,
    message_id: offer.message_id,
    expires_at: offer.expires_at.toISOString(),
    appointment_id: offer.appointment_id,
    replaced_by_id: offer.replaced_by_id,
    chosen: offer.chosen_token ? (offer.slots.find((item) => item.token === offer.chosen_token)?.title ?? null) : null,
    slots: offer.slots.map(({ token, title, resource_id, starts_at, ends_at, answer }) =>
      answer ? { title, value: token, answer } : { title, value: token, resource_id, starts_at, ends_at },
    ),
    created_at: offer.created_at.toISOString(),
  };
}

/** The account's offer in this conversation, or 404. */
export async function findOffer(db: Knex, conversation: Conversation, id: number): Promise<Offer> {
  const offer = await Offer.query(db).findOne({ id, account_id: conversation.account_id, conversation_id: conversation.id });
  if (!offer) throw new SchedulingError(404, "NOT_FOUND", "Offer not found");
  return offer;
}
