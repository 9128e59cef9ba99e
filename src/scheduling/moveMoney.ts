/**
 * What a booking's money does when it moves (docs/scheduling-money.md). The price is a snapshot
 * taken when the booking was made: moving it to another resource keeps it, so a paid booking stays
 * paid, unless the client asks to re-price (`reprice`). The compensation is the new resource's, so
 * the expense it earns is that resource's; expenses.ts moves or claws back the expense entries.
 * Changing the service is a new booking of another thing: it takes that service's price.
 */
import type { Appointment } from "../models/scheduling/Appointment";

export interface PriceChange {
  resource_id?: number;
  service_id?: number | null;
  reprice?: boolean;
}

/** Whether the price and compensation are looked up again: a new booking, another resource or service, or re-pricing. */
export function pricingLookedUp(existing: Appointment | undefined, input: PriceChange): boolean {
  if (!existing) return true;
  return input.reprice === true || (input.resource_id !== undefined && input.resource_id !== existing.resource_id) || servicesDiffer(existing, input);
}

/** Whether the looked-up price replaces the snapshot; on a plain move the snapshot stays. */
export function priceReplaced(existing: Appointment | undefined, input: PriceChange): boolean {
  if (!existing || existing.service_amount <= 0) return true;
  return input.reprice === true || servicesDiffer(existing, input);
}

const servicesDiffer = (existing: Appointment, input: PriceChange) =>
  "service_id" in input && input.service_id !== undefined && input.service_id !== existing.service_id;
