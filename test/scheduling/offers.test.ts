import test from "ava";
import { createInbox } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { chooseOffer } from "../../src/scheduling/offerChoice";
import { liveClinic } from "./bookingSupport";
import { inboxBot, messagesOf, offerApi, offerBecomes, publicChat } from "./offerSupport";

const h = useHarness(test, { relay: true });

test("an offer end to end: the contact picks through the public client API, the booking is linked and confirmed, the offer booked", async (t) => {
  const c = await liveClinic(h);
  const chat = await publicChat(h, c);
  const opened = await offerApi(h, c).open(chat.conversationId, { service_id: c.service.id, count: 3 });
  t.is(opened.status, 201, JSON.stringify(opened.body));
  const offer = opened.body.payload;
  t.like(offer, { status: "open", kind: "slots", conversation_id: chat.conversationId });
  t.is(offer.slots.length, 3);
  t.true(new Date(offer.expires_at).getTime() - Date.now() > 59 * 60_000, "open for an hour by default");
  // "Fri 27 Nov, 14:05 — Dr. Now": the day, the resource's wall clock and the resource.
  t.regex(offer.slots[0].title, /^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2} — Dr\. Now$/);

  const message = (await messagesOf(h, c, chat.conversationId)).find((m) => m.id === offer.message_id);
  t.like(message, { content_type: "input_select", message_type: 1, sender_type: "User" });
  t.deepEqual(
    message.content_attributes.items,
    offer.slots.map((slot: any) => ({ title: slot.title, value: slot.value })),
  );

  const chosen = offer.slots[1];
  await chat.choose(offer.message_id, { title: chosen.title, value: chosen.value });
  const booked = await offerBecomes(h, c, chat.conversationId, offer.id, ["booked"]);
  t.is(booked.chosen, chosen.title);
  const appointment = (await accountApi(h, c.account).get(`/scheduling/appointments/${booked.appointment_id}`)).body.payload;
  t.like(appointment, {
    conversation_id: chat.conversationId,
    contact_id: chat.contact.id,
    resource_id: c.resource.id,
    service_id: c.service.id,
    status: "scheduled",
  });
  t.is(new Date(appointment.starts_at).getTime(), new Date(chosen.starts_at).getTime());
  t.is(appointment.idempotency_key, `offer-${offer.id}-${chosen.value}`);
  const confirmation = await eventually(
    () => messagesOf(h, c, chat.conversationId),
    (messages) => messages.some((m) => /is confirmed/.test(m.content ?? "")),
    "the booking's confirmation message",
  );
  t.truthy(confirmation);
  const events = await h.knex("events").where({ account_id: c.account.id, name: "appointment.created" }).select("payload");
  t.deepEqual(
    events.map((e) => e.payload.id),
    [appointment.id],
  );
  // A second answer to a booked offer changes nothing.
  await chat.choose(offer.message_id, { title: offer.slots[0].title, value: offer.slots[0].value });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.is((await h.knex("scheduling_appointments").where({ account_id: c.account.id }).select("id")).length, 1);
});

test("a contact who types a slot's title books it; the account API takes submitted_values too", async (t) => {
  const c = await liveClinic(h);
  const chat = await publicChat(h, c);
  const first = (await offerApi(h, c).open(chat.conversationId, { service_id: c.service.id, count: 2 })).body.payload;
  await chat.say(`  ${first.slots[0].title.toUpperCase()} `);
  const booked = await offerBecomes(h, c, chat.conversationId, first.id, ["booked"]);
  t.is(booked.chosen, first.slots[0].title);

  const second = (await offerApi(h, c).open(chat.conversationId, { service_id: c.service.id, count: 2, from: first.slots[1].ends_at })).body.payload;
  const updated = await accountApi(h, c.account).patch(`/conversations/${chat.conversationId}/messages/${second.message_id}`, {
    submitted_values: [{ title: second.slots[0].title, value: second.slots[0].value }],
  });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.deepEqual(updated.body.content_attributes.submitted_values, [{ title: second.slots[0].title, value: second.slots[0].value }]);
  t.like(await offerBecomes(h, c, chat.conversationId, second.id, ["booked"]), { chosen: second.slots[0].title });
  const missing = await accountApi(h, c.account).patch(`/conversations/${chat.conversationId}/messages/${second.message_id}`, {});
  t.is(missing.status, 422);
});

test("a slot taken meanwhile gets a fresh offer instead of a silent failure", async (t) => {
  const c = await liveClinic(h);
  const chat = await publicChat(h, c);
  const offer = (await offerApi(h, c).open(chat.conversationId, { service_id: c.service.id, count: 1 })).body.payload;
  const [slot] = offer.slots;
  // Someone else books that very slot first.
  await c.api.create("/appointments", { resource_id: slot.resource_id, service_id: c.service.id, contact_id: c.contact.id, starts_at: slot.starts_at });

  await chat.choose(offer.message_id, { title: slot.title, value: slot.value });
  const replaced = await offerBecomes(h, c, chat.conversationId, offer.id, ["replaced", "booked", "expired"]);
  t.is(replaced.status, "replaced");
  t.is(replaced.appointment_id, null);
  const fresh = (await offerApi(h, c).get(chat.conversationId, replaced.replaced_by_id)).body.payload;
  t.like(fresh, { status: "open", kind: "slots" });
  t.notDeepEqual(
    fresh.slots.map((s: any) => s.starts_at),
    [slot.starts_at],
  );
  const messages = await messagesOf(h, c, chat.conversationId);
  t.like(
    messages.find((m) => m.id === fresh.message_id),
    { content: "Sorry, that time was just taken. Please choose another one:", content_type: "input_select" },
  );
  await chat.choose(fresh.message_id, { title: fresh.slots[0].title, value: fresh.slots[0].value });
  t.like(await offerBecomes(h, c, chat.conversationId, fresh.id, ["booked"]), { status: "booked" });
});

test("an offer nobody answers expires, and a message says so", async (t) => {
  const c = await liveClinic(h);
  const chat = await publicChat(h, c);
  const offer = (await offerApi(h, c).open(chat.conversationId, { service_id: c.service.id, count: 2, expires_in_minutes: 1 })).body.payload;
  t.is(offer.status, "open");
  const expired = await offerBecomes(h, c, chat.conversationId, offer.id, ["expired", "booked"], 120_000);
  t.is(expired.status, "expired");
  t.true(Date.now() >= new Date(offer.expires_at).getTime());
  t.true((await messagesOf(h, c, chat.conversationId)).some((m) => m.content === "The times offered have expired. Write to us and we will offer new ones."));
  await chat.choose(offer.message_id, { title: offer.slots[0].title, value: offer.slots[0].value });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.is((await offerApi(h, c).get(chat.conversationId, offer.id)).body.payload.status, "expired", "a late answer books nothing");
  t.is((await h.knex("scheduling_appointments").where({ account_id: c.account.id }).select("id")).length, 0);
});

test("the inbox's bot may offer slots; a bot of another inbox may not; bad requests are refused", async (t) => {
  const c = await liveClinic(h);
  const chat = await publicChat(h, c);
  const bot = await inboxBot(h, c, c.inbox.id);
  const offered = await offerApi(h, c, bot.token).open(chat.conversationId, { service_id: c.service.id, count: 2 });
  t.is(offered.status, 201, JSON.stringify(offered.body));
  const message = (await messagesOf(h, c, chat.conversationId)).find((m) => m.id === offered.body.payload.message_id);
  t.like(message, { sender_type: "AgentBot", sender_id: bot.id });
  t.is((await offerApi(h, c, bot.token).get(chat.conversationId, offered.body.payload.id)).status, 200);
  const audit = await h.knex("audit_logs").where({ auditable_type: "Scheduling::Offer", auditable_id: offered.body.payload.id }).first();
  t.like(audit, { user_type: "AgentBot", user_id: bot.id, action: "create" });

  const otherInbox = await createInbox(h, c.account, { name: "Other" });
  const stranger = await inboxBot(h, c, otherInbox.id, "Stranger Bot");
  t.is((await offerApi(h, c, stranger.token).open(chat.conversationId, { service_id: c.service.id })).status, 401);

  const api = offerApi(h, c);
  const bad = await api.open(chat.conversationId, { service_id: c.service.id, count: 11, expires_in_minutes: 0 });
  t.is(bad.status, 422);
  t.deepEqual(Object.keys(bad.body.details).sort(), ["count", "expires_in_minutes"]);
  t.is((await api.open(chat.conversationId, {})).status, 422);
  t.is((await api.open(chat.conversationId, { service_id: 999_999 })).status, 404);
  t.is((await api.open(999_999, { service_id: c.service.id })).status, 404);
  const none = await api.open(chat.conversationId, { service_id: c.service.id, from: "2020-01-01T00:00:00Z", to: "2020-01-02T00:00:00Z" });
  t.deepEqual([none.status, none.body.code], [422, "NO_FREE_SLOTS"]);
  t.is((await api.get(chat.conversationId, 999_999)).status, 404);
});

test("the automation action offer_slots offers slots with the same parameters", async (t) => {
  const c = await liveClinic(h);
  const rules = accountApi(h, c.account);
  const invalid = await rules.post("/automation_rules", {
    name: "Offer",
    event_name: "conversation_created",
    conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
    actions: [{ action_name: "offer_slots", action_params: [{ count: 3 }] }],
  });
  t.is(invalid.status, 422);
  await expectOk(
    rules.post("/automation_rules", {
      name: "Offer",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      actions: [{ action_name: "offer_slots", action_params: [{ service_id: c.service.id, count: 2, expires_in_minutes: 30 }] }],
    }),
    "rule",
  );
  const chat = await publicChat(h, c);
  const offer = await eventually(
    () => h.knex("scheduling_offers").where({ account_id: c.account.id }).first(),
    (row) => Boolean(row),
    "the rule's offer",
  );
  t.like(offer, { status: "open", created_by_type: "AutomationRule" });
  t.is(offer.slots.length, 2);
  const shown = (await offerApi(h, c).get(chat.conversationId, offer.id)).body.payload;
  t.true(Math.abs(new Date(shown.expires_at).getTime() - new Date(shown.created_at).getTime() - 30 * 60_000) < 5000);
  await chat.choose(shown.message_id, { title: shown.slots[0].title, value: shown.slots[0].value });
  t.like(await offerBecomes(h, c, chat.conversationId, offer.id, ["booked"]), { status: "booked" });
});

test("50 choices of one offer at once make one booking: the first to lock it books, the rest find it closed", async (t) => {
  const c = await liveClinic(h);
  const chat = await publicChat(h, c);
  const offer = (await offerApi(h, c).open(chat.conversationId, { service_id: c.service.id, count: 5 })).body.payload;
  const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => chooseOffer(h.knex, offer.id, offer.slots[i % 5].value)));
  t.deepEqual(
    outcomes.filter((outcome) => outcome !== "closed"),
    ["booked"],
  );
  t.is((await h.knex("scheduling_appointments").where({ account_id: c.account.id }).select("id")).length, 1);
  t.like((await offerApi(h, c).get(chat.conversationId, offer.id)).body.payload, { status: "booked" });
});
