import test from "ava";
import { eventually } from "../support/eventually";
import type { AppDeps } from "../../src/deps";
import { fireConversationTimer } from "../../src/conversations/autoResolve";
import { accountApi, useHarness } from "../support/harness";
import {
  contents as messagesOf,
  currentDetails,
  deadlineIn as moveDeadlineAndPlan,
  dueAt,
  openConversation,
  setupSettled,
  show as showConversation,
  type TimedConversation,
} from "./support";

const h = useHarness(test, { relay: true });

type Setup = TimedConversation;

const setup = (settings: Record<string, unknown>) => openConversation(h, settings);
const deadlineIn = (s: Setup, inMs: number, minutes = 10, deps: AppDeps = h.deps) => moveDeadlineAndPlan(h, s, inMs, minutes, deps);
const show = (s: Setup) => showConversation(h, s);
const contents = (s: Setup) => messagesOf(h, s);

test("an idle open conversation resolves at its deadline, with the message, the label and Chatwoot's activity", async (t) => {
  const s = await setup({ auto_resolve_after: 10, auto_resolve_message: "We are closing this for now.", auto_resolve_label: "auto-closed" });
  const deadline = await deadlineIn(s, 1500);
  t.is(await dueAt(h, s), deadline, "the deadline is planned on the conversation");
  const details = await eventually(
    () => currentDetails(h.deps),
    (d) => d.startsWith("Next sweep at"),
    "the sweep to show its next wake-up",
    15_000,
  );
  t.true(new Date(details.slice("Next sweep at ".length, details.indexOf("Z") + 1)).getTime() <= deadline, `operators see when it sweeps next: ${details}`);

  const resolvedAt = Date.now();
  const conversation = await eventually(
    () => show(s),
    (c) => c.status === "resolved",
    "the conversation to resolve",
    15_000,
  );
  t.is(conversation.status, "resolved");
  t.true(Date.now() - resolvedAt < 10_000);
  t.deepEqual(conversation.labels, ["auto-closed"]);
  t.is(conversation.waiting_since, 0);
  const messages = await contents(s);
  t.deepEqual(messages.find((m) => m.message_type === 3)?.content, "We are closing this for now.");
  t.true(messages.some((m) => m.message_type === 2 && m.content === "Conversation was marked resolved by system due to 10 minutes of inactivity"));
  const events = await h.knex("events").where({ account_id: s.account.id, conversation_id: s.conversation.dbId }).pluck("name");
  t.true(events.includes("conversation_status_changed"));
  t.true(messages.find((m) => m.message_type === 2)!.created_at.getTime() >= deadline, "not before the deadline");
  t.is(await dueAt(h, s), null, "nothing waits any more");
});

test("new activity moves the deadline: a conversation that had a message is not resolved", async (t) => {
  const s = await setup({ auto_resolve_after: 10 });
  await deadlineIn(s, 3000);
  const reply = await h.request("POST", `/api/v1/accounts/${s.account.id}/conversations/${s.conversation.id}/messages`, {
    token: s.account.admin.token,
    body: { content: "Still here", message_type: "outgoing" },
  });
  t.is(reply.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  t.is((await show(s)).status, "open");
  t.true((await dueAt(h, s))! > Date.now() + 9 * 60_000, "the timer now waits ten minutes from the reply");
});

test("fifty messages at once leave the deadline ten minutes after the last of them", async (t) => {
  const s = await setup({ auto_resolve_after: 10 });
  await deadlineIn(s, 60_000);
  const replies = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      h.request("POST", `/api/v1/accounts/${s.account.id}/conversations/${s.conversation.id}/messages`, {
        token: s.account.admin.token,
        body: { content: `reply ${i}`, message_type: i % 2 ? "outgoing" : "incoming" },
      }),
    ),
  );
  t.deepEqual([...new Set(replies.map((r) => r.status))], [200]);
  await setupSettled(h, s);
  const { last_activity_at: lastActivity } = await h.knex("conversations").where("id", s.conversation.dbId).first("last_activity_at");
  t.is(await dueAt(h, s), lastActivity.getTime() + 10 * 60_000, "relays planning batches side by side leave the latest plan");
});

test("a late or duplicate timer never resolves a conversation that is not due", async (t) => {
  const s = await setup({ auto_resolve_after: 10 });
  t.is(await fireConversationTimer(h.knex, { conversationId: s.conversation.dbId }, "resolve"), null);
  t.is(await fireConversationTimer(h.knex, { conversationId: s.conversation.dbId }, "reopen"), null);
  t.is((await show(s)).status, "open");
});

test("with ignore_waiting, a conversation waiting for an agent is left alone", async (t) => {
  const s = await setup({ auto_resolve_after: 10, auto_resolve_ignore_waiting: true });
  await h.knex("conversations").where("id", s.conversation.dbId).update({ waiting_since: new Date() });
  await deadlineIn(s, 500);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  t.is((await show(s)).status, "open");
});

test("a snoozed conversation reopens at snoozed_until", async (t) => {
  const s = await setup({});
  // Far enough ahead that a loaded CI machine still shows it snoozed before it reopens.
  const snoozedUntil = Math.floor(Date.now() / 1000) + 5;
  const snoozed = await h.request("POST", `/api/v1/accounts/${s.account.id}/conversations/${s.conversation.id}/toggle_status`, {
    token: s.account.admin.token,
    body: { status: "snoozed", snoozed_until: snoozedUntil },
  });
  t.is(snoozed.status, 200);
  t.is((await show(s)).status, "snoozed");
  const reopened = await eventually(
    () => show(s),
    (c) => c.status === "open",
    "the conversation to reopen",
    15_000,
  );
  t.is(reopened.status, "open");
  t.true(Date.now() / 1000 >= snoozedUntil);
});

test("disabling auto-resolve cancels pending timers; enabling it again resolves what is overdue", async (t) => {
  const s = await setup({ auto_resolve_after: 10 });
  await deadlineIn(s, 4000);
  const off = await accountApi(h, s.account).patch("", { auto_resolve_after: null });
  t.is(off.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 6000));
  t.is((await show(s)).status, "open");

  const on = await accountApi(h, s.account).patch("", { auto_resolve_after: 10 });
  t.is(on.status, 200);
  const conversation = await eventually(
    () => show(s),
    (c) => c.status === "resolved",
    "the conversation to resolve",
    15_000,
  );
  t.is(conversation.status, "resolved");
});

test("shortening auto_resolve_after brings the deadline forward: an idle conversation now due resolves", async (t) => {
  const s = await setup({ auto_resolve_after: 60 });
  // Idle for ten minutes less two seconds: not due under an hour, due in two seconds under ten minutes.
  await deadlineIn(s, 2000, 10);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  t.is((await show(s)).status, "open", "not due while the setting is an hour");
  const shortened = await accountApi(h, s.account).patch("", { auto_resolve_after: 10 });
  t.is(shortened.status, 200);
  const conversation = await eventually(
    () => show(s),
    (c) => c.status === "resolved",
    "the conversation to resolve",
    15_000,
  );
  t.is(conversation.status, "resolved");
});

test("lengthening auto_resolve_after pushes the deadline back: the conversation stays open and the timer shows the new deadline", async (t) => {
  const s = await setup({ auto_resolve_after: 10 });
  await deadlineIn(s, 4000);
  const lengthened = await accountApi(h, s.account).patch("", { auto_resolve_after: 60 });
  t.is(lengthened.status, 200);
  const later = Date.now() + 40 * 60_000;
  const due = await eventually(
    () => dueAt(h, s),
    (at) => (at ?? 0) > later,
    "the deadline to move about fifty minutes on",
    15_000,
  );
  t.true(due! > later, "about fifty minutes from now");
  await new Promise((resolve) => setTimeout(resolve, 6000));
  t.is((await show(s)).status, "open");
});
