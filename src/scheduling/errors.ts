import { ApiError } from "../errors";

/**
 * The scheduling area answers errors as the fork's Scheduling::Error does: `{error, code, details?}`,
 * unlike the rest of the API (Chatwoot's shapes).
 */
export type SchedulingCode =
  | "VALIDATION_ERROR"
  | "NOT_FOUND"
  | "FEATURE_DISABLED"
  | "INVALID_IIN"
  | "SERVICE_NOT_AVAILABLE_FOR_RESOURCE"
  | "DUPLICATE_EXTERNAL_REF"
  | "DUPLICATE_IDEMPOTENCY_KEY"
  | "APPOINTMENT_NOT_FOUND"
  | "EXPENSE_NOT_FOUND"
  | "APPOINTMENT_DELETE_REQUIRES_CANCELLED"
  | "HISTORICAL_DATA_RETAINED"
  | "RESOURCE_NOT_AVAILABLE_FOR_SCHEDULING"
  | "IDEMPOTENCY_KEY_REUSED"
  | "INVALID_STATUS_TRANSITION"
  | "MINIMUM_NOTICE_NOT_MET"
  | "NO_FREE_SLOTS"
  | BookingBlockCode;

/** Why an interval cannot be booked, in the order the checks run (reference §5). */
export type BookingBlockCode = "OUTSIDE_WORKING_HOURS" | "BLOCKED_BY_HOLIDAY" | "BLOCKED_BY_BREAK" | "BLOCKED_BY_VACATION" | "SLOT_CONFLICT";

/** Attribute → messages, as ActiveModel::Errors#to_hash renders them. */
export type ErrorDetails = Record<string, string[]>;

export class SchedulingError extends ApiError {
  constructor(
    status: number,
    readonly code: SchedulingCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(status, { error: message, code, ...(details ? { details } : {}) });
  }
}

/** A 422 naming the attributes at fault; the message lists them as "Validation failed: ..." does. */
export function invalid(details: ErrorDetails): SchedulingError {
  const messages = Object.entries(details).flatMap(([attribute, texts]) => texts.map((text) => `${attribute} ${text}`));
  return new SchedulingError(422, "VALIDATION_ERROR", `Validation failed: ${messages.join(", ")}`, details);
}

export const invalidAttribute = (attribute: string, text: string) => invalid({ [attribute]: [text] });

export const notFound = (what = "Resource") => new SchedulingError(404, "NOT_FOUND", `${what} not found`);

export const appointmentNotFound = () => new SchedulingError(404, "APPOINTMENT_NOT_FOUND", "Appointment not found");
export const expenseNotFound = () => new SchedulingError(404, "EXPENSE_NOT_FOUND", "Expense not found");

/** A rule of the fork's services raised as ArgumentError: 422 VALIDATION_ERROR with its message and no details. */
export const refused = (message: string) => new SchedulingError(422, "VALIDATION_ERROR", message);

export const invalidIin = () => new SchedulingError(422, "INVALID_IIN", "IIN checksum is invalid");

/** Booking refusals answer 409 with the rule that blocked the interval. */
export const bookingBlocked = (code: BookingBlockCode, message: string) => new SchedulingError(409, code, message);
