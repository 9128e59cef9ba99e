import test from "ava";
import { timerPlan } from "../../src/conversations/timers";

const lastActivity = new Date("2026-11-22T10:00:00Z");
const open = { status: "open" as const, contact_id: 1, snoozed_until: null, last_activity_at: lastActivity, waiting_since: null };

test("an open conversation resolves auto_resolve_after minutes after its last activity", (t) => {
  t.deepEqual(timerPlan(open, { auto_resolve_after: 60 }), { kind: "resolve", at: lastActivity.getTime() + 3_600_000 });
});

test("no timer without the setting, for pending or resolved conversations, or without a contact", (t) => {
  t.is(timerPlan(open, {}), null);
  t.is(timerPlan(open, { auto_resolve_after: null }), null);
  t.is(timerPlan({ ...open, status: "pending" }, { auto_resolve_after: 60 }), null);
  t.is(timerPlan({ ...open, status: "resolved" }, { auto_resolve_after: 60 }), null);
  t.is(timerPlan({ ...open, contact_id: null }, { auto_resolve_after: 60 }), null);
});

test("ignore_waiting leaves conversations waiting for an agent alone", (t) => {
  const waiting = { ...open, waiting_since: new Date("2026-11-22T09:00:00Z") };
  t.is(timerPlan(waiting, { auto_resolve_after: 60, auto_resolve_ignore_waiting: true }), null);
  t.deepEqual(timerPlan(waiting, { auto_resolve_after: 60, auto_resolve_ignore_waiting: false })?.kind, "resolve");
});

test("a snoozed conversation reopens at snoozed_until, whatever the auto-resolve setting", (t) => {
  const until = new Date("2026-11-23T08:00:00Z");
  t.deepEqual(timerPlan({ ...open, status: "snoozed", snoozed_until: until }, {}), { kind: "reopen", at: until.getTime() });
  t.is(timerPlan({ ...open, status: "snoozed", snoozed_until: null }, { auto_resolve_after: 60 }), null);
});
