import test from "ava";
import { eventually } from "../support/eventually";
import { localTimeText } from "../../src/scheduling/appointmentTimeline";
import { accountApi, useHarness } from "../support/harness";
import { Receiver } from "../support/receiver";
import { book, conversationMessages, liveClinic, type LiveClinic } from "./bookingSupport";

const h = useHarness(test, { relay: true });

const HOUR = 60 * 60_000;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function messagesOnce(c: LiveClinic, displayId: number, n: number): Promise<string[]> {
  const messages = await eventually(
    () => conversationMessages(h, c.account, displayId),
    (m) => m.length >= n,
    "the conversation to have its messages",
    20_000,
  );
  return messages.map((m) => m.content);
}

test("cancel then delete at once: the contact still gets the cancellation, and appointment.deleted carries the booking", async (t) => {
  const c = await liveClinic(h);
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  const hook = await accountApi(h, c.account).post("/webhooks", { url: receiver.url, subscriptions: ["appointment.deleted"] });

  const startsAt = inMs(48 * HOUR);
  const appointment = await book(c.api, {
    resource_id: c.resource.id,
    service_id: c.service.id,
    contact_id: c.contact.id,
    inbox_id: c.inbox.id,
    starts_at: startsAt,
  });
  const when = localTimeText(Date.parse(startsAt), c.resource.timezone);
  t.deepEqual(await messagesOnce(c, appointment.conversation_id, 1), [`Your appointment with Dr. Now on ${when} is confirmed.`]);

  t.is((await c.api.post(`/appointments/${appointment.id}/cancel`, { cancellation_reason: "client asked" })).status, 200);
  t.is((await c.api.delete(`/appointments/${appointment.id}`)).status, 204);
  // Posted by the deletion itself, not left to a workflow that will find the booking gone.
  const messages = (await conversationMessages(h, c.account, appointment.conversation_id)).map((m) => m.content);
  t.deepEqual(messages, [`Your appointment with Dr. Now on ${when} is confirmed.`, `Your appointment with Dr. Now on ${when} has been cancelled.`]);
  t.is((await c.api.get(`/appointments/${appointment.id}`)).status, 404);

  t.is(hook.status, 200, "appointment.deleted can be subscribed to");
  const [delivered] = await receiver.waitFor((r) => r.length >= 1);
  t.like(delivered!.body, {
    event: "appointment.deleted",
    id: appointment.id,
    status: "cancelled",
    cancellation_reason: "client asked",
    conversation_id: appointment.conversation_id,
    resource_id: c.resource.id,
    account: { id: c.account.id },
  });
  t.true(Date.now() - Date.parse(delivered!.body.deleted_at as string) < 60_000);
  // Nothing posted twice, whatever the workflow does once it wakes.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.is((await conversationMessages(h, c.account, appointment.conversation_id)).length, 2);
});

test("a live booking cannot be deleted; one never announced is deleted without a message", async (t) => {
  const c = await liveClinic(h);
  const walkIn = await book(c.api, { resource_id: c.resource.id, service_id: c.service.id, client_name: "Walk-in", starts_at: inMs(50 * HOUR) });
  const live = await c.api.delete(`/appointments/${walkIn.id}`);
  t.deepEqual([live.status, live.body.code], [422, "APPOINTMENT_DELETE_REQUIRES_CANCELLED"]);
  await c.api.post(`/appointments/${walkIn.id}/cancel`, {});
  t.is((await c.api.delete(`/appointments/${walkIn.id}`)).status, 204);
  const events = await h.knex("events").where({ account_id: c.account.id }).where("name", "like", "appointment.%").orderBy("id").pluck("name");
  t.deepEqual(events, ["appointment.created", "appointment.updated", "appointment.cancelled", "appointment.deleted"]);
});
