/**
 * The fork's money rules (docs/scheduling-money.md), pure: what a booking costs, what the resource
 * earns from it, and what the amounts received make of its payment status.
 */
import type { CompensationType, PaymentStatus } from "./constants";
import { SchedulingError } from "./errors";

export interface Amounts {
  service_amount: number;
  prepaid_amount: number;
  settlement_amount: number;
  /** Of what was received, how much went back; none when absent. */
  refunded_amount?: number;
}

export const receivedOf = (a: Amounts) => a.prepaid_amount + a.settlement_amount;

/** What is still owed; never negative. */
export const remainingOf = (a: Amounts) => Math.max(a.service_amount - receivedOf(a), 0);

/** What was received and not given back. */
export const keptOf = (a: Amounts) => receivedOf(a) - (a.refunded_amount ?? 0);

/**
 * Derived, never set by the client. Everything given back is `refunded`, whatever else happened;
 * otherwise a requested cancellation wins (and sticks); then what is kept against the price.
 */
export function derivePaymentStatus(amounts: Amounts, cancelled: boolean): PaymentStatus {
  const refunded = amounts.refunded_amount ?? 0;
  const kept = keptOf(amounts);
  if (refunded > 0 && kept <= 0) return "refunded";
  if (cancelled) return "cancelled";
  if (receivedOf(amounts) <= 0) return "awaiting_payment";
  if (amounts.service_amount <= 0 || kept >= amounts.service_amount) return "paid";
  return refunded > 0 ? "partially_refunded" : "prepaid";
}

export interface Compensation {
  type: CompensationType | null;
  value: number | null;
}

/**
 * Whether the resource earns its compensation: the price was received in full and not all of it
 * went back (a partial refund is the clinic's, the resource's share stays on the price).
 */
export function earnsCompensation(a: Amounts & { payment_status: PaymentStatus }): boolean {
  if (a.payment_status === "paid") return true;
  return a.payment_status === "partially_refunded" && (a.service_amount <= 0 || receivedOf(a) >= a.service_amount);
}

/** What the resource is owed for a paid appointment: a fixed sum, or a rounded share of the price. */
export function expenseAmount(compensation: Compensation, serviceAmount: number): number {
  if (compensation.type === "fixed") return compensation.value ?? 0;
  if (compensation.type === "percent") return Math.round((serviceAmount * (compensation.value ?? 0)) / 100);
  return 0;
}

export interface PriceRow {
  price: number;
  compensation_type: CompensationType;
  compensation_value: number;
  active: boolean;
}

export interface Pricing {
  /** The service's price for the resource; undefined without a service. */
  price?: number;
  compensation: Compensation;
}

/**
 * The price and compensation of booking `service` with a resource: its active positive
 * per-resource price (with that price's compensation), else the base price (with the resource's).
 * An inactive service, or one that would cost nothing, cannot be booked.
 */
export function resolvePricing(
  service: { active: boolean; base_price: number } | undefined,
  resourcePrice: PriceRow | undefined,
  resource: { compensation_type: CompensationType; compensation_value: number },
): Pricing {
  const fromResource = { type: resource.compensation_type, value: resource.compensation_value };
  if (!service) return { compensation: fromResource };
  const own = resourcePrice?.active && resourcePrice.price > 0 ? resourcePrice : undefined;
  const price = own ? own.price : service.base_price;
  if (!service.active || price <= 0) {
    throw new SchedulingError(422, "SERVICE_NOT_AVAILABLE_FOR_RESOURCE", "Service is not available for the selected resource");
  }
  return { price, compensation: own ? { type: own.compensation_type, value: own.compensation_value } : fromResource };
}
