import test from "ava";
import { at, clinic } from "../scheduling/bookingSupport";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const denied = { error: "You are not authorized to do this action" };

/** A clinic with two inboxes: the agent is a member of `own` only. */
async function setup() {
  const c = await clinic(h);
  const own = await createInbox(h, c.account, { name: "Own" });
  const foreign = await createInbox(h, c.account, { name: "Foreign" });
  await setInboxMembers(h, c.account, own.id, [c.account.agent.id]);
  const asAgent = accountApi(h, c.account, c.account.agent.token);
  return { ...c, own, foreign, asAgent };
}

test("an agent links a contact only to inboxes they are a member of; administrators to any", async (t) => {
  const { account, own, foreign, asAgent } = await setup();
  const { contact } = await createContact(h, account, { email: "linked@example.com" });

  const refused = await asAgent.post(`/contacts/${contact.id}/contact_inboxes`, { inbox_id: foreign.id });
  t.deepEqual([refused.status, refused.body], [401, denied]);
  t.is((await h.knex("contact_inboxes").where({ contact_id: contact.id, inbox_id: foreign.id })).length, 0, "nothing was linked");

  const linked = await asAgent.post(`/contacts/${contact.id}/contact_inboxes`, { inbox_id: own.id });
  t.is(linked.status, 200);
  t.is(linked.body.inbox.id, own.id);
  t.is((await accountApi(h, account).post(`/contacts/${contact.id}/contact_inboxes`, { inbox_id: foreign.id })).status, 200);
  t.is((await asAgent.post(`/contacts/${contact.id}/contact_inboxes`, { inbox_id: 999_999 })).status, 404);
});

test("an agent cannot create a contact in an inbox they are not a member of, nor ask for its agent bot", async (t) => {
  const { account, own, foreign, asAgent } = await setup();
  const refused = await asAgent.post("/contacts", { name: "Intruder", email: "intruder@example.com", inbox_id: foreign.id });
  t.deepEqual([refused.status, refused.body], [401, denied]);
  t.is((await h.knex("contacts").where({ account_id: account.id, email: "intruder@example.com" })).length, 0);
  t.is((await asAgent.post("/contacts", { name: "Welcome", email: "welcome@example.com", inbox_id: own.id })).status, 200);

  t.deepEqual([(await asAgent.get(`/inboxes/${foreign.id}/agent_bot`)).status], [401]);
  t.is((await asAgent.get(`/inboxes/${own.id}/agent_bot`)).status, 200);
});

test("an agent's booking cannot name a conversation or open one in an inbox they are not a member of", async (t) => {
  const { account, api, resource, service, contact, own, foreign } = await setup();
  const agent = account.agent.token;
  const { contact: chatContact, sourceId } = await createContact(h, account, { email: "chat@example.com", inbox_id: foreign.id });
  const conversation = await expectOk(
    accountApi(h, account).post("/conversations", { source_id: sourceId, inbox_id: foreign.id, contact_id: chatContact.id }),
    "conversation",
  );
  const booking = (time: string, extra: Record<string, unknown>) => ({
    resource_id: resource.id,
    service_id: service.id,
    contact_id: contact.id,
    starts_at: at(time),
    ...extra,
  });
  const conversationsBefore = (await h.knex("conversations").where({ account_id: account.id })).length;

  const intoForeign = await api.post("/appointments", booking("10:00", { conversation_id: conversation.id }), agent);
  t.deepEqual([intoForeign.status, intoForeign.body], [401, denied]);
  const openingForeign = await api.post("/appointments", booking("10:00", { inbox_id: foreign.id }), agent);
  t.deepEqual([openingForeign.status, openingForeign.body], [401, denied]);
  t.is((await h.knex("scheduling_appointments").where({ resource_id: resource.id })).length, 0, "nothing was booked");
  t.is((await h.knex("conversations").where({ account_id: account.id })).length, conversationsBefore, "no conversation was opened");
  t.is(
    (
      await h
        .knex("messages")
        .where({ conversation_id: (await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first()).id })
    ).length,
    0,
  );

  const ownBooking = await api.post("/appointments", booking("11:00", { inbox_id: own.id }), agent);
  t.is(ownBooking.status, 201);
  const moved = await api.patch(`/appointments/${ownBooking.body.payload.id}`, { conversation_id: conversation.id }, agent);
  t.deepEqual([moved.status, moved.body], [401, denied]);
  t.is((await api.post("/appointments", booking("12:00", { conversation_id: conversation.id }))).status, 201, "the administrator may");
});
