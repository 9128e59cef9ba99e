/**
 * The fork's money rules (reference/scheduling.md §7), pure: what a booking costs, what the resource
 * earns from it, and what the amounts received make of its payment status.
 */
import type { CompensationType, PaymentStatus } from "./constants";
import { SchedulingError } from "./errors";

export interface Amounts {
  service_amount: number;
  prepaid_amount: number;
  settlement_amount: number;
}

export const receivedOf = (a: Amounts) => a.prepaid_amount + a.settlement_amount;

/** What is still owed; never negative. */
export const remainingOf = (a: Amounts) => Math.max(a.service_amount - receivedOf(a), 0);

/** Derived, never set by the client, except that a requested cancellation wins (and sticks). */
export function derivePaymentStatus(amounts: Amounts, cancelled: boolean): PaymentStatus {
  if (cancelled) return "cancelled";
  const received = receivedOf(amounts);
  if (received <= 0) return "awaiting_payment";
  if (amounts.service_amount <= 0 || received >= amounts.service_amount) return "paid";
  return "prepaid";
}

export interface Compensation {
  type: CompensationType | null;
  value: number | null;
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
