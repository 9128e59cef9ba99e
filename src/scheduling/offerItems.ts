/**
 * The items of an offer's input_select: a readable title in the account's locale and the
 * resource's zone ("Tue 1 Dec, 10:00 — Dr. Bolat"), and an opaque token as the value the
 * contact's choice sends back.
 */
import { randomBytes } from "node:crypto";
import { DateTime } from "luxon";
import type { ConfirmationAnswer, OfferItem } from "../models/scheduling/Offer";
import type { FreeSlot } from "./freeSlots";
import { isoInZone } from "./timezone";

/** Unguessable, so a contact cannot book a slot that was never offered to them. */
export const offerToken = () => randomBytes(12).toString("base64url");

/** Chatwoot's locales use underscores (pt_BR); Intl wants pt-BR. Unknown locales fall back to English. */
const intlLocale = (locale: string | null | undefined) => (locale || "en").replace("_", "-");

export function slotTitle(start: number, timeZone: string, resourceName: string, locale: string | null | undefined): string {
  const when = DateTime.fromMillis(start, { zone: timeZone }).setLocale(intlLocale(locale)).toFormat("EEE d MMM, HH:mm");
  return `${when} — ${resourceName}`;
}

export function slotItems(slots: FreeSlot[], locale: string | null | undefined): OfferItem[] {
  return slots.map(({ resource, start, end }) => ({
    token: offerToken(),
    title: slotTitle(start, resource.timezone, resource.name, locale),
    resource_id: resource.id,
    starts_at: isoInZone(start, resource.timezone),
    ends_at: isoInZone(end, resource.timezone),
  }));
}

const ANSWER_TITLES: Record<ConfirmationAnswer, string> = {
  confirm: "Confirm",
  cancel: "Cancel the appointment",
  another_time: "Choose another time",
};

export function confirmationItems(): OfferItem[] {
  return (Object.keys(ANSWER_TITLES) as ConfirmationAnswer[]).map((answer) => ({ token: offerToken(), title: ANSWER_TITLES[answer], answer }));
}

/** The input_select items as the message carries them. */
export const selectItems = (items: OfferItem[]) => items.map(({ title, token }) => ({ title, value: token }));

/** The item a contact's typed text names: its title, ignoring case and surrounding spaces. */
export function itemTitled(items: OfferItem[], text: string): OfferItem | undefined {
  const wanted = text.trim().toLocaleLowerCase();
  return wanted ? items.find((item) => item.title.trim().toLocaleLowerCase() === wanted) : undefined;
}
