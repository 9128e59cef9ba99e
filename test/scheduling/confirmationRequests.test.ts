import test from "ava";
import { eventually } from "../support/eventually";
import { useHarness } from "../support/harness";
import { liveClinic } from "./bookingSupport";
import { messagesOf, offerBecomes, publicChat } from "./offerSupport";

const h = useHarness(test, { relay: true });

/** A booking starting in 75 seconds in an account that asks for confirmation a minute ahead, and its confirmation request once posted. */
async function requested() {
  const c = await liveClinic(h);
  const set = await c.api.patch("/settings", { confirmation_request_minutes_before: 1 });
  if (set.body.payload?.confirmation_request_minutes_before !== 1) throw new Error(JSON.stringify(set.body));
  const chat = await publicChat(h, c);
  const appointment = await c.api.create("/appointments", {
    resource_id: c.resource.id,
    service_id: c.service.id,
    contact_id: chat.contact.id,
    conversation_id: chat.conversationId,
    starts_at: new Date(Date.now() + 75_000).toISOString(),
  });
  const row = await eventually(
    () => h.knex("scheduling_offers").where({ appointment_id: appointment.id, kind: "confirmation" }).first(),
    (row) => Boolean(row),
    "the confirmation request",
    45_000,
  );
  const message = (await messagesOf(h, c, chat.conversationId)).find((m) => m.id === row.message_id);
  const item = (answer: string) => {
    const found = row.slots.find((slot: any) => slot.answer === answer);
    return { title: found.title, value: found.token };
  };
  return { c, chat, appointment, offer: row, message, item };
}

const appointmentOf = async (r: Awaited<ReturnType<typeof requested>>) => (await r.c.api.get(`/appointments/${r.appointment.id}`)).body.payload;

test("a confirmation request answered 'confirm' confirms the booking", async (t) => {
  const r = await requested();
  t.like(r.message, { content_type: "input_select", message_type: 1 });
  t.regex(r.message.content, /^Please confirm your appointment with Dr\. Now on /);
  t.deepEqual(
    r.message.content_attributes.items.map((i: any) => i.title),
    ["Confirm", "Cancel the appointment", "Choose another time"],
  );
  t.true(Date.now() < new Date(r.appointment.starts_at).getTime(), "asked before the start");
  await r.chat.choose(r.offer.message_id, r.item("confirm"));
  t.like(await offerBecomes(h, r.c, r.chat.conversationId, r.offer.id, ["answered"]), { chosen: "Confirm" });
  t.is((await appointmentOf(r)).status, "confirmed");
});

test("a confirmation request answered 'cancel' cancels it with the contact as the reason", async (t) => {
  const r = await requested();
  await r.chat.say("cancel the appointment");
  await offerBecomes(h, r.c, r.chat.conversationId, r.offer.id, ["answered"]);
  t.like(await appointmentOf(r), { status: "cancelled", cancellation_reason: "cancelled_by_contact" });
  await eventually(
    () => messagesOf(h, r.c, r.chat.conversationId),
    (messages) => messages.some((m) => /has been cancelled/.test(m.content ?? "")),
    "the cancellation notice",
  );
  t.pass();
});

test("a confirmation request answered 'another time' opens an offer whose choice moves the booking", async (t) => {
  const r = await requested();
  await r.chat.choose(r.offer.message_id, r.item("another_time"));
  await offerBecomes(h, r.c, r.chat.conversationId, r.offer.id, ["answered"]);
  const offer = await eventually(
    () => h.knex("scheduling_offers").where({ appointment_id: r.appointment.id, kind: "slots" }).first(),
    (row) => Boolean(row),
    "the offer of other times",
  );
  const [slot] = offer.slots;
  await r.chat.choose(offer.message_id, { title: slot.title, value: slot.token });
  t.like(await offerBecomes(h, r.c, r.chat.conversationId, offer.id, ["booked"]), { appointment_id: r.appointment.id });
  const moved = await appointmentOf(r);
  t.is(new Date(moved.starts_at).getTime(), new Date(slot.starts_at).getTime());
  t.is(moved.status, "scheduled");
  t.is((await h.knex("scheduling_appointments").where({ account_id: r.c.account.id }).select("id")).length, 1, "moved, not booked twice");
});

test("a confirmation request nobody answers leaves the booking as it is and raises an event", async (t) => {
  const r = await requested();
  const expired = await offerBecomes(h, r.c, r.chat.conversationId, r.offer.id, ["expired", "answered"], 90_000);
  t.is(expired.status, "expired");
  t.is((await appointmentOf(r)).status, "scheduled");
  const event = await h.knex("events").where({ account_id: r.c.account.id, name: "appointment.confirmation_unanswered" }).first();
  t.like(event?.payload, { id: r.appointment.id, status: "scheduled", event: "appointment.confirmation_unanswered" });
});
