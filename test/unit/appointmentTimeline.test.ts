import test from "ava";
import { announcementDue, nextStep, reminderKey } from "../../src/scheduling/appointmentTimeline";
import { HOLD_EXPIRED_REASON } from "../../src/scheduling/constants";
import { derivePaymentStatus, expenseAmount, resolvePricing } from "../../src/scheduling/money";

const HOUR = 3_600_000;
const now = Date.parse("2030-03-04T04:00:00Z");
const booked = {
  status: "scheduled" as const,
  starts_at: new Date(now + 30 * HOUR),
  ends_at: new Date(now + 31 * HOUR),
  start_set_at: new Date(now),
  hold_expires_at: null as Date | null,
  prepaid_amount: 0,
  settlement_amount: 0,
  conversation_id: 7,
  resource_id: 3,
  cancellation_reason: null as string | null,
};

test("reminders: the earliest unsent one whose time had not passed when the start was set; then the start", (t) => {
  const start = booked.starts_at.getTime();
  t.deepEqual(nextStep(booked, [1440, 120], new Set(), now), { kind: "reminder", at: start - 24 * HOUR, offsetMinutes: 1440, startsAt: start });
  t.deepEqual(nextStep(booked, [1440, 120], new Set([reminderKey(1440, start)]), now)?.at, start - 2 * HOUR);
  const bookedLate = { ...booked, start_set_at: new Date(start - 3 * HOUR) };
  t.deepEqual(nextStep(bookedLate, [1440, 120], new Set(), now)?.at, start - 2 * HOUR, "the 24 h reminder had passed when it was booked");
  t.deepEqual(nextStep({ ...booked, conversation_id: null }, [1440, 120], new Set(), now), { kind: "start", at: start }, "no conversation, no reminders");
  t.is(nextStep({ ...booked, status: "cancelled" as never }, [1440], new Set(), now), undefined);
  t.is(nextStep(booked, [1440], new Set(), start), undefined, "nothing once it has started");
});

test("closing a booking left open: its grace after its end, once started, only when the account says so", (t) => {
  const start = booked.starts_at.getTime();
  const end = booked.ends_at.getTime();
  const plan = { status: "no_show" as const, graceMinutes: 90 };
  t.deepEqual(nextStep(booked, [], new Set(), now, plan), { kind: "start", at: start }, "the start comes first");
  t.deepEqual(nextStep(booked, [], new Set(), start, plan), { kind: "close", at: end + 90 * 60_000, status: "no_show" });
  t.deepEqual(nextStep(booked, [], new Set(), end + 10 * HOUR, plan)?.kind, "close", "overdue: at once");
  t.is(nextStep(booked, [], new Set(), start, null), undefined, "no setting: nothing after the start");
  t.is(nextStep({ ...booked, status: "completed" as never }, [], new Set(), start, plan), undefined, "a closed booking stays");
});

test("the hold comes first while nothing is paid, and goes with the first payment", (t) => {
  const held = { ...booked, hold_expires_at: new Date(now + HOUR) };
  t.deepEqual(nextStep(held, [1440], new Set(), now), { kind: "hold", at: now + HOUR });
  t.is(nextStep({ ...held, prepaid_amount: 1 }, [1440], new Set(), now)?.kind, "reminder");
});

test("announcements: confirmation once, a notice per move, a cancellation only for a client who was told or a hold that ran out", (t) => {
  const confirmation = announcementDue(booked, [], now);
  t.deepEqual(confirmation, { kind: "confirmation", key: `1:confirmation:3@${booked.starts_at.toISOString()}` });
  const notices = [{ kind: "confirmation" as const, key: confirmation!.key }];
  t.is(announcementDue(booked, notices, now), undefined);
  const moved = { ...booked, starts_at: new Date(now + 40 * HOUR) };
  t.deepEqual(announcementDue(moved, notices, now)?.kind, "rescheduled");
  t.deepEqual(announcementDue({ ...booked, status: "cancelled" as never }, notices, now), { kind: "cancelled", key: "2:cancelled" });
  t.is(announcementDue({ ...booked, status: "cancelled" as never }, [], now), undefined, "never told of it: not told of its cancellation");
  t.is(announcementDue({ ...booked, status: "cancelled" as never, cancellation_reason: HOLD_EXPIRED_REASON }, [], now)?.kind, "cancelled");
  const reopened = announcementDue(booked, [...notices, { kind: "cancelled" as const, key: "2:cancelled" }], now);
  t.deepEqual(reopened, { kind: "confirmation", key: `3:confirmation:3@${booked.starts_at.toISOString()}` }, "re-opened after a cancellation: confirmed again");
  t.is(announcementDue({ ...booked, conversation_id: null }, [], now), undefined);
});

test("money: derived payment status, expense by compensation, price resolution", (t) => {
  const amounts = { service_amount: 10_000, prepaid_amount: 0, settlement_amount: 0 };
  t.is(derivePaymentStatus(amounts, false), "awaiting_payment");
  t.is(derivePaymentStatus({ ...amounts, prepaid_amount: 1 }, false), "prepaid");
  t.is(derivePaymentStatus({ ...amounts, prepaid_amount: 4000, settlement_amount: 6000 }, false), "paid");
  t.is(derivePaymentStatus({ ...amounts, service_amount: 0, prepaid_amount: 1 }, false), "paid");
  t.is(derivePaymentStatus({ ...amounts, prepaid_amount: 10_000 }, true), "cancelled");
  t.is(expenseAmount({ type: "percent", value: 33 }, 1005), 332);
  t.is(expenseAmount({ type: "fixed", value: 2500 }, 1005), 2500);
  t.is(expenseAmount({ type: null, value: null }, 1005), 0);
  const resource = { compensation_type: "percent" as const, compensation_value: 40 };
  t.deepEqual(resolvePricing({ active: true, base_price: 5000 }, { price: 0, compensation_type: "fixed", compensation_value: 1, active: true }, resource), {
    price: 5000,
    compensation: { type: "percent", value: 40 },
  });
  t.throws(() => resolvePricing({ active: true, base_price: 0 }, undefined, resource), { message: "Service is not available for the selected resource" });
});
