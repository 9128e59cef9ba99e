/** The scheduling fork's constants (Scheduling::Constants at e9defc7); see docs/scheduling.md. */
export const DEFAULT_TIMEZONE = "Asia/Almaty";
/** Slots advance by this many minutes inside a free interval; not a request parameter. */
export const SLOT_STEP_MINUTES = 5;
export const MIN_DURATION_MINUTES = 5;
export const MAX_DURATION_MINUTES = 720;
export const DEFAULT_SLOT_DURATION_MINUTES = 30;
export const MINUTES_PER_DAY = 1440;

export const APPOINTMENT_STATUSES = ["scheduled", "confirmed", "completed", "cancelled", "no_show"] as const;
export const APPOINTMENT_TYPES = ["primary", "secondary", "other"] as const;
/** The fork's four, and two of ours: money that went back to the client (docs/scheduling-money.md). */
export const PAYMENT_STATUSES = ["awaiting_payment", "prepaid", "paid", "cancelled", "refunded", "partially_refunded"] as const;
export const PAYMENT_METHODS = ["kaspi_transfer", "kaspi_qr", "cash", "bank_transfer", "card", "other"] as const;
/** The fork's three, and refunds: money given back, an entry of its own. */
export const PAYMENT_KINDS = ["prepaid", "payment", "adjustment", "refund"] as const;
export const EXPENSE_STATUSES = ["unpaid", "paid"] as const;
/** What the resource earned for a booking, or a correction of it (a claw-back when a booking paid out moves away). */
export const EXPENSE_KINDS = ["compensation", "adjustment"] as const;
export const COMPENSATION_TYPES = ["percent", "fixed"] as const;
export const CALENDAR_VIEWS = ["day", "week", "month", "list"] as const;

export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export type CompensationType = (typeof COMPENSATION_TYPES)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export type ExpenseKind = (typeof EXPENSE_KINDS)[number];

/** What the account may have a booking left open after its end become (scheduling settings). */
export const ENDED_BOOKING_STATUSES = ["completed", "no_show"] as const;
export type EndedBookingStatus = (typeof ENDED_BOOKING_STATUSES)[number];

/** The UI's "active" bookings: the ones that hold their slot ahead and get reminders. */
export const LIVE_APPOINTMENT_STATUSES: readonly AppointmentStatus[] = ["scheduled", "confirmed"];

/** Why the service itself cancelled a booking. */
export const HOLD_EXPIRED_REASON = "prepayment_not_received";
/** Longest prepayment hold a booking may ask for: a week. */
export const MAX_HOLD_MINUTES = 10_080;

/** The scheduling fork's appointment events; account webhooks may subscribe to them. */
export const APPOINTMENT_EVENT_NAMES = [
  "appointment.created",
  "appointment.updated",
  "appointment.cancelled",
  "appointment.completed",
  "appointment.no_show",
  "appointment.rescheduled",
  "appointment.reminder_sent",
  "appointment.deleted",
  /** A confirmation request (confirmation_request_minutes_before) got no answer before the start. */
  "appointment.confirmation_unanswered",
] as const;
