import { z, type ZodType } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { id, jsonObject, page, wrappedUnder } from "../../../http/schemas";
import {
  APPOINTMENT_STATUSES,
  APPOINTMENT_TYPES,
  CALENDAR_VIEWS,
  COMPENSATION_TYPES,
  DEFAULT_TIMEZONE,
  EXPENSE_STATUSES,
  MAX_DURATION_MINUTES,
  MAX_HOLD_MINUTES,
  MIN_DURATION_MINUTES,
  PAYMENT_KINDS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from "../../../scheduling/constants";
import { canonicalTimeZone, parseInstant } from "../../../scheduling/timezone";
import { parseTimeInput } from "../../../scheduling/wallTime";

// ---- field types

const text = () => z.string().trim().max(255);
const requiredText = () => z.string().trim().min(1).max(255);
const money = () => z.number().int().min(0);
const durationMin = () => z.number().int().min(MIN_DURATION_MINUTES).max(MAX_DURATION_MINUTES);
const startMinute = () => z.number().int().min(0).max(1439);
const endMinute = () => z.number().int().min(1).max(1440);

const booleanParam = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

const timezone = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .transform((value, ctx) => {
      const zone = canonicalTimeZone(value.trim());
      if (!zone) ctx.addIssue({ code: "custom", message: "is not a valid IANA timezone" });
      return zone ?? value;
    });

/** A calendar date, "YYYY-MM-DD", that exists. */
export const calendarDate = () => z.string().max(MAX_LENGTH.string).refine(isCalendarDate, { message: "is not a valid date" });

/**
 * One check for shape and existence: zod runs every refinement even after a format check failed,
 * so the existence test must never assume the shape (an Invalid Date throws on toISOString).
 */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** An ISO 8601 date-time; without an offset it is wall-clock time in the default zone (Asia/Almaty). */
export const instant = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .transform((value, ctx) => {
      const ms = parseInstant(value, DEFAULT_TIMEZONE);
      if (ms === undefined) {
        ctx.addIssue({ code: "custom", message: "is not a valid date-time" });
        return z.NEVER;
      }
      return new Date(ms);
    });

/**
 * An ISO 8601 date-time kept as the request gave it: with an offset it is an instant; without one
 * it is wall-clock time in the zone of what it is about (the resource's, or the account's).
 */
export const timeInput = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .transform((value, ctx) => {
      const parsed = parseTimeInput(value);
      if (parsed === undefined) {
        ctx.addIssue({ code: "custom", message: "is not a valid date-time" });
        return z.NEVER;
      }
      return parsed;
    });

const compensationFields = {
  compensation_type: z.enum(COMPENSATION_TYPES),
  compensation_value: z.number().int().min(0),
};

/** Fields of a body, optionally wrapped under `key` as Rails' ParamsWrapper clients send them. */
const body = <S extends ZodType>(key: string, schema: S, name: string) => z.preprocess(wrappedUnder(key), schema).openapi(name);

// ---- envelopes

export const one = (schema: ZodType) => z.object({ payload: schema });
export const many = (schema: ZodType) => z.object({ payload: z.array(schema), meta: z.object({ count: z.number() }) });

export const accountItemParams = z.object({ account_id: id(), id: id() });
export const resourceRulesParams = z.object({ account_id: id(), resource_id: id() });

/** Resource and service lists: the active rows, unless `include_inactive` asks for all. */
export const catalogQuery = z.object({ include_inactive: booleanParam.default(false) });

// ---- resources

const resourceFields = z
  .object({
    name: requiredText(),
    specialty: text().nullable(),
    timezone: timezone(),
    slot_duration_min: durationMin(),
    ...compensationFields,
    active: z.boolean(),
    user_id: id().nullable(),
    custom_attributes: jsonObject(),
  })
  .partial();

export const resourceCreate = body("resource", resourceFields.required({ name: true }), "SchedulingResourceCreate");
export const resourceUpdate = body("resource", resourceFields, "SchedulingResourceUpdate");
export type ResourceInput = z.output<typeof resourceFields>;

export const resourceResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    user_id: z.number().nullable(),
    name: z.string(),
    specialty: z.string().nullable(),
    timezone: z.string(),
    slot_duration_min: z.number(),
    compensation_type: z.string(),
    compensation_value: z.number(),
    active: z.boolean(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingResource");

// ---- weekly rules

const ruleFields = {
  weekday: z.number().int().min(0).max(6),
  start_minute: startMinute(),
  end_minute: endMinute(),
  active: z.boolean().default(true),
};

/** The whole set, as `{rules: [...]}`, `{work_rules|break_rules: [...]}` or a bare array. */
const ruleSet = <S extends ZodType>(key: string, rule: S, name: string) =>
  z
    .preprocess(
      (input) => {
        if (Array.isArray(input)) return { rules: input };
        if (input && typeof input === "object" && key in input) return { rules: (input as Record<string, unknown>)[key] };
        return input;
      },
      z.object({ rules: z.array(rule).max(100) }).superRefine(({ rules }, ctx) => {
        const seen = new Set<string>();
        (rules as { weekday: number; start_minute: number; end_minute: number }[]).forEach((r, index) => {
          // Only between minutes that are themselves valid: a bad bound is reported on its own.
          const bounded = r.start_minute <= 1439 && r.end_minute >= 1;
          if (bounded && r.end_minute <= r.start_minute) {
            ctx.addIssue({ code: "custom", path: ["rules", index, "end_minute"], message: "must be greater than start minute" });
          }
          const key = `${r.weekday}/${r.start_minute}/${r.end_minute}`;
          if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["rules", index, "weekday"], message: "has already been taken" });
          seen.add(key);
        });
      }),
    )
    .openapi(name);

export const workRulesBody = ruleSet("work_rules", z.object(ruleFields), "SchedulingWorkRules");
export const breakRulesBody = ruleSet("break_rules", z.object({ ...ruleFields, title: text().nullable().optional() }), "SchedulingBreakRules");

export const workRuleResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number(),
    weekday: z.number(),
    start_minute: z.number(),
    end_minute: z.number(),
    active: z.boolean(),
  })
  .openapi("SchedulingWorkRule");
export const breakRuleResponse = workRuleResponse.extend({ title: z.string().nullable() }).openapi("SchedulingBreakRule");

// ---- holidays

const holidayFields = z
  .object({
    date: calendarDate(),
    title: requiredText(),
    recurring_yearly: z.boolean(),
    working_day_override: z.boolean(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const holidayCreate = body("holiday", holidayFields.required({ date: true, title: true }), "SchedulingHolidayCreate");
export const holidayUpdate = body("holiday", holidayFields, "SchedulingHolidayUpdate");

export const holidayResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    date: z.string(),
    title: z.string(),
    recurring_yearly: z.boolean(),
    working_day_override: z.boolean(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingHoliday");

// ---- workday overrides

const overrideFields = z
  .object({
    resource_id: id(),
    date: calendarDate(),
    start_minute: startMinute(),
    end_minute: endMinute(),
    break_start_minute: startMinute().nullable(),
    break_end_minute: endMinute().nullable(),
    break_title: text().nullable(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const overrideCreate = body(
  "workday_override",
  overrideFields.required({ resource_id: true, date: true, start_minute: true, end_minute: true }),
  "SchedulingWorkdayOverrideCreate",
);
export const overrideUpdate = body("workday_override", overrideFields, "SchedulingWorkdayOverrideUpdate");
export type OverrideInput = z.output<typeof overrideFields>;

export const overrideResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number(),
    date: z.string(),
    start_minute: z.number(),
    end_minute: z.number(),
    break_start_minute: z.number().nullable(),
    break_end_minute: z.number().nullable(),
    break_title: z.string().nullable(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingWorkdayOverride");

export const overridesQuery = z.object({ resource_id: id().optional() });

// ---- time off

const timeOffFields = z
  .object({
    resource_id: id().nullable(),
    kind: requiredText(),
    /** Without an offset: wall-clock time in the resource's zone (the account's for everyone's time off). */
    starts_at: timeInput(),
    ends_at: timeInput(),
    title: text().nullable(),
    notes: z.string().max(10_000).nullable(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const timeOffCreate = body("time_off", timeOffFields.required({ kind: true, starts_at: true, ends_at: true }), "SchedulingTimeOffCreate");
export const timeOffUpdate = body("time_off", timeOffFields, "SchedulingTimeOffUpdate");
export type TimeOffInput = z.output<typeof timeOffFields>;

export const timeOffResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number().nullable(),
    kind: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    title: z.string().nullable(),
    notes: z.string().nullable(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingTimeOff");

/** As the fork filters: exactly that resource (account-wide rows are NULL), and entries starting in [from, to). */
export const timeOffsQuery = z.object({ resource_id: id().optional(), from: instant().optional(), to: instant().optional() });

// ---- services

const priceFields = z.object({
  resource_id: id(),
  price: money(),
  compensation_type: z.enum(COMPENSATION_TYPES).default("percent"),
  compensation_value: z.number().int().min(0).default(0),
  active: z.boolean().default(true),
});

const serviceFields = z
  .object({
    name: requiredText(),
    category: text().nullable(),
    direction: text().nullable(),
    service_type: text().nullable(),
    description: z.string().max(10_000).nullable(),
    base_price: money(),
    duration_min: durationMin(),
    active: z.boolean(),
    prepayment_required: z.boolean(),
    custom_attributes: jsonObject(),
    prices: z.array(priceFields).max(500),
  })
  .partial();
export const serviceCreate = body("service", serviceFields.required({ name: true }), "SchedulingServiceCreate");
export const serviceUpdate = body("service", serviceFields, "SchedulingServiceUpdate");
export type ServiceInput = z.output<typeof serviceFields>;

export const serviceResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    name: z.string(),
    category: z.string().nullable(),
    direction: z.string().nullable(),
    service_type: z.string().nullable(),
    description: z.string().nullable(),
    base_price: z.number(),
    duration_min: z.number(),
    active: z.boolean(),
    prepayment_required: z.boolean(),
    custom_attributes: jsonObject(),
    prices: z.array(
      z.object({
        id: z.number(),
        resource_id: z.number(),
        price: z.number(),
        compensation_type: z.string(),
        compensation_value: z.number(),
        active: z.boolean(),
      }),
    ),
  })
  .openapi("SchedulingService");

// ---- contacts

const contactFields = z
  .object({
    full_name: text(),
    name: text(),
    phone: z.string().max(50),
    phone_number: z.string().max(50),
    identifier: text(),
    iin: z.string().max(50),
    gender: text(),
    birth_date: calendarDate(),
    company_id: id(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const contactBody = body("contact", contactFields, "SchedulingContactRequest");

export const contactsQuery = z.object({
  search: z.string().max(255).optional(),
  // Clamped rather than refused, as the fork does.
  limit: z.coerce
    .number()
    .int()
    .default(20)
    .transform((limit) => Math.min(100, Math.max(1, limit))),
});

export const contactResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    company_id: z.number().nullable(),
    full_name: z.string(),
    phone: z.string().nullable(),
    identifier: z.string().nullable(),
    gender: z.string().nullable(),
    birth_date: z.string().nullable(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingContact");

// ---- calendar

/** Ids as CSV, or as a JSON array or `ids[]=` list, which read as the same CSV. */
const csvIds = z.union([z.string().max(MAX_LENGTH.text), z.number(), z.array(z.union([z.number(), z.string().max(32)])).max(1000)]).transform((value, ctx) => {
  const parts = [value]
    .flat()
    .join(",")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const ids = parts.map(Number);
  if (ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
    ctx.addIssue({ code: "custom", message: "must be comma-separated ids" });
    return z.NEVER;
  }
  return [...new Set(ids)];
});

export const calendarQuery = z
  .object({
    view: z.enum(CALENDAR_VIEWS).default("week"),
    /** Without an offset: wall-clock time in the account's scheduling timezone. */
    from: timeInput(),
    to: timeInput(),
    resource_ids: csvIds.optional(),
    /** Only the resources that offer this service (an active price of it); slots last as long as it, unless duration_min says. */
    service_id: z.coerce.number().int().positive().optional(),
    include_slots: booleanParam.default(false),
    duration_min: z.coerce.number().int().min(MIN_DURATION_MINUTES).max(MAX_DURATION_MINUTES).optional(),
  })
  .openapi("SchedulingCalendarQuery");

const slotResponse = z.object({ resource_id: z.number(), starts_at: z.string(), ends_at: z.string(), status: z.literal("available") });

export const calendarResponse = one(
  z.object({
    view: z.enum(CALENDAR_VIEWS),
    range: z.object({ from: z.string(), to: z.string() }),
    resources: z.array(resourceResponse),
    work_rules: z.array(workRuleResponse),
    break_rules: z.array(breakRuleResponse),
    holidays: z.array(holidayResponse),
    workday_overrides: z.array(overrideResponse),
    time_offs: z.array(timeOffResponse),
    appointments: z.array(jsonObject()),
    payments: z.array(jsonObject()),
    expenses: z.array(jsonObject()),
    slots: z.array(slotResponse),
  }),
).openapi("SchedulingCalendar");

// ---- appointments

/** A comma-separated list of names, each one of `values`. */
const csvOf = <T extends string>(values: readonly T[]) =>
  z.string().transform((value, ctx) => {
    const parts = [
      ...new Set(
        value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = parts.filter((part) => !(values as readonly string[]).includes(part));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `is not included in the list (${unknown.join(", ")})` });
      return z.NEVER;
    }
    return parts as T[];
  });

const pagination = {
  page: page(),
  per_page: z.coerce.number().int().min(1).max(500).default(100),
};

const appointmentFields = z
  .object({
    resource_id: id(),
    contact_id: id().nullable(),
    service_id: id().nullable(),
    company_id: id().nullable(),
    /** The conversation's display id, as clients know it. */
    conversation_id: id().nullable(),
    /** With a contact and no conversation: a conversation is opened in this inbox for the booking's messages. */
    inbox_id: id(),
    created_by_id: id().nullable(),
    starts_at: timeInput(),
    ends_at: timeInput(),
    duration_min: durationMin(),
    status: z.enum(APPOINTMENT_STATUSES),
    appointment_type: z.enum(APPOINTMENT_TYPES),
    source: requiredText(),
    client_name: text().nullable(),
    client_phone: z.string().trim().max(50).nullable(),
    client_identifier: text().nullable(),
    client_birth_date: calendarDate().nullable(),
    client_gender: text().nullable(),
    notes: z.string().max(10_000).nullable(),
    /** The fork's name for notes. */
    client_comment: z.string().max(10_000).nullable(),
    external_ref: text().nullable(),
    idempotency_key: text().nullable(),
    service_amount: money(),
    prepaid_amount: money(),
    prepaid_payment_method: z.enum(PAYMENT_METHODS).nullable(),
    settlement_amount: money(),
    settlement_payment_method: z.enum(PAYMENT_METHODS).nullable(),
    /** Derived from the amounts; only "cancelled" (or leaving it) means something here. */
    payment_status: z.enum(PAYMENT_STATUSES),
    custom_attributes: jsonObject(),
  })
  .partial();

/** Hold the slot unpaid for this long (or until then); past it without a prepayment, the booking is cancelled. */
const holdFields = z
  .object({
    hold_minutes: z.number().int().min(1).max(MAX_HOLD_MINUTES),
    hold_until: timeInput(),
  })
  .partial();

/** Staff recording a visit that already happened: the minimum notice does not apply. */
const pastVisitField = z.object({ record_past_visit: z.union([z.boolean(), booleanParam]) }).partial();

export const appointmentCreate = body(
  "appointment",
  appointmentFields.extend(holdFields.shape).extend(pastVisitField.shape).required({ resource_id: true, starts_at: true }),
  "SchedulingAppointmentCreate",
);
/** A boolean in a body, as Rails casts one: true/false, "true"/"false", "1"/"0", 1/0. */
const flag = () => z.union([z.boolean(), booleanParam, z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1)]);

export const appointmentUpdate = body(
  "appointment",
  appointmentFields.extend(holdFields.shape).extend(pastVisitField.shape).extend({
    /** On a move to another resource the price is kept (docs/scheduling-money.md); true takes the new resource's price. */
    reprice: flag().optional(),
  }),
  "SchedulingAppointmentUpdate",
);
export type AppointmentInput = z.output<typeof appointmentFields> & z.output<typeof holdFields> & z.output<typeof pastVisitField>;

export const cancelBody = z.object({ cancellation_reason: text().nullable().optional() }).openapi("SchedulingAppointmentCancel");

export const appointmentsQuery = z
  .object({
    resource_ids: csvIds.optional(),
    status: csvOf(APPOINTMENT_STATUSES).optional(),
    payment_status: csvOf(PAYMENT_STATUSES).optional(),
    contact_id: id().optional(),
    from: instant().optional(),
    to: instant().optional(),
    ...pagination,
  })
  .openapi("SchedulingAppointmentsQuery");

export const paymentResponse = z
  .object({
    id: z.number(),
    appointment_id: z.number(),
    recorded_by_id: z.number().nullable(),
    amount: z.number(),
    payment_method: z.string(),
    payment_kind: z.string(),
    /** A refund's reason. */
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("SchedulingPayment");

export const expenseResponse = z
  .object({
    id: z.number(),
    appointment_id: z.number(),
    resource_id: z.number(),
    /** compensation, or adjustment (negative to claw back). */
    kind: z.string(),
    amount: z.number(),
    status: z.string(),
    paid_at: z.string().nullable(),
    paid_by_id: z.number().nullable(),
    payout_id: z.string().nullable(),
  })
  .openapi("SchedulingExpense");

export const appointmentResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    resource_id: z.number(),
    contact_id: z.number().nullable(),
    service_id: z.number().nullable(),
    company_id: z.number().nullable(),
    conversation_id: z.number().nullable(),
    created_by_id: z.number().nullable(),
    starts_at: z.string(),
    ends_at: z.string(),
    duration_min: z.number(),
    status: z.string(),
    appointment_type: z.string(),
    source: z.string(),
    client_name: z.string(),
    client_phone: z.string().nullable(),
    client_identifier: z.string().nullable(),
    client_birth_date: z.string().nullable(),
    client_gender: z.string().nullable(),
    payment_status: z.string(),
    service_amount: z.number(),
    prepaid_amount: z.number(),
    settlement_amount: z.number(),
    /** Of what was received, how much was refunded. */
    refunded_amount: z.number(),
    prepaid_payment_method: z.string().nullable(),
    settlement_payment_method: z.string().nullable(),
    compensation_type_snapshot: z.string().nullable(),
    compensation_value_snapshot: z.number().nullable(),
    external_ref: z.string().nullable(),
    idempotency_key: z.string().nullable(),
    notes: z.string().nullable(),
    custom_attributes: jsonObject(),
    hold_expires_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    cancellation_reason: z.string().nullable(),
    payments: z.array(z.object({ id: z.number(), amount: z.number(), payment_method: z.string(), payment_kind: z.string() })),
    expense: z.object({ id: z.number(), amount: z.number(), status: z.string() }).nullable(),
  })
  .openapi("SchedulingAppointment");

export const pagedMany = (schema: ZodType) =>
  z.object({ payload: z.array(schema), meta: z.object({ count: z.number(), current_page: z.number(), per_page: z.number() }) });

// ---- payments and expenses

export const appointmentPaymentParams = z.object({ account_id: id(), appointment_id: id() });

export const paymentBody = body(
  "payment",
  z.object({
    /** Defaults to the remaining balance. */
    amount: z.number().int().optional(),
    payment_method: z.enum(PAYMENT_METHODS),
  }),
  "SchedulingPaymentCreate",
);

export const refundBody = body(
  "refund",
  z.object({
    /** Defaults to everything paid and not yet refunded. */
    amount: z.number().int().optional(),
    /** Defaults to the method the money last came in by. */
    payment_method: z.enum(PAYMENT_METHODS).optional(),
    reason: z.string().trim().max(1000).nullable().optional(),
  }),
  "SchedulingRefundCreate",
);

export const paymentsQuery = z
  .object({
    payment_kinds: csvOf(PAYMENT_KINDS).optional(),
    payment_methods: csvOf(PAYMENT_METHODS).optional(),
    resource_ids: csvIds.optional(),
    from: instant().optional(),
    to: instant().optional(),
    ...pagination,
  })
  .openapi("SchedulingPaymentsQuery");

const expenseFilters = {
  resource_ids: csvIds.optional(),
  /** On the appointment's start. */
  from: instant().optional(),
  to: instant().optional(),
};

export const expensesQuery = z.object({ status: csvOf(EXPENSE_STATUSES).optional(), ...expenseFilters, ...pagination }).openapi("SchedulingExpensesQuery");

/** pay_all's filters, in the body or the query string. */
export const payAllFilters = z.object(expenseFilters).openapi("SchedulingExpensesPayAll");

export const payoutResponse = one(
  z.object({
    payout_id: z.string(),
    workflow_id: z.string(),
    /** Unpaid expenses matching the filters when the payout was asked for. */
    count: z.number(),
    status: z.string(),
  }),
).openapi("SchedulingPayout");

// ---- settings

export const settingsResponse = one(
  z.object({
    reminder_offsets_minutes: z.array(z.number()),
    prepayment_hold_minutes: z.number(),
    minimum_notice_minutes: z.number(),
    timezone: z.string(),
  }),
).openapi("SchedulingSettings");

export const settingsUpdate = body(
  "settings",
  z
    .object({
      /** Minutes before the start; at most 10, up to 30 days ahead. */
      reminder_offsets_minutes: z
        .array(z.number().int().min(1).max(43_200))
        .max(10)
        .transform((offsets) => [...new Set(offsets)].sort((a, b) => b - a)),
      prepayment_hold_minutes: z.number().int().min(1).max(MAX_HOLD_MINUTES),
      /** New bookings and moves start at least this far ahead; up to a year. */
      minimum_notice_minutes: z.number().int().min(0).max(525_600),
      /** Default zone of new resources and of the calendar's range. */
      timezone: timezone(),
    })
    .partial(),
  "SchedulingSettingsUpdate",
);
