import test from "ava";
import { addToAccount, createAccount, createUser } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { createContact } from "../support/conversationFactories";

const h = useHarness(test);

const notesOf = (contactId: number) => `/contacts/${contactId}/notes`;
const eventsOf = (accountId: number, name: string) => h.knex("events").where({ account_id: accountId, name }).orderBy("id");

test("a note is created by the caller and rendered as Chatwoot's note partial, in the contact's events", async (t) => {
  const account = await createAccount(h);
  const { contact } = await createContact(h, account);
  const agent = accountApi(h, account, account.agent.token);
  const response = await agent.post(notesOf(contact.id), { note: { content: "Prefers email" } });
  t.is(response.status, 200);
  const row = await h.knex("notes").where({ id: response.body.id }).first();
  t.like(row, { account_id: account.id, contact_id: contact.id, user_id: account.agent.id, content: "Prefers email" });
  t.like(response.body, {
    id: Number(row.id),
    content: "Prefers email",
    account_id: null,
    contact_id: null,
    created_at: Math.floor(row.created_at.getTime() / 1000),
    updated_at: Math.floor(row.updated_at.getTime() / 1000),
  });
  t.like(response.body.user, { id: account.agent.id, email: account.agent.email, role: "agent", account_id: account.id });

  const [event] = await eventsOf(account.id, "contact_note_created");
  t.like(event.payload, { id: Number(row.id), content: "Prefers email", contact_id: contact.id, account_id: account.id, event: "contact_note_created" });
  t.is(event.payload.user.id, account.agent.id);

  const bare = await agent.post(notesOf(contact.id), { content: "Bare body" });
  t.is(bare.status, 200);
});

test("blank content is refused on create as Rails validates it, and silently not saved on update", async (t) => {
  const account = await createAccount(h);
  const { contact } = await createContact(h, account);
  const api = accountApi(h, account);
  for (const body of [{ note: { content: "  " } }, {}, { note: {} }]) {
    const refused = await api.post(notesOf(contact.id), body);
    t.deepEqual([refused.status, refused.body], [422, { message: "Content can't be blank", attributes: ["content"] }]);
  }
  t.is((await h.knex("notes").where({ contact_id: contact.id })).length, 0);

  const note = await expectOk(api.post(notesOf(contact.id), { note: { content: "Kept" } }), "create");
  const unchanged = await api.patch(`${notesOf(contact.id)}/${note.id}`, { note: { content: "" } });
  t.deepEqual([unchanged.status, unchanged.body.content], [200, "Kept"]);
  t.is((await eventsOf(account.id, "contact_note_updated")).length, 0);
});

test("index is the contact's notes newest first as a bare array; show, update and delete", async (t) => {
  const account = await createAccount(h);
  const { contact } = await createContact(h, account);
  const { contact: otherContact } = await createContact(h, account, { name: "Other" });
  const api = accountApi(h, account);
  const first = await expectOk(api.post(notesOf(contact.id), { note: { content: "First" } }), "first");
  const second = await expectOk(api.post(notesOf(contact.id), { note: { content: "Second" } }), "second");
  await expectOk(api.post(notesOf(otherContact.id), { note: { content: "Elsewhere" } }), "other contact");

  const index = await expectOk(api.get(notesOf(contact.id)), "index");
  t.deepEqual(
    index.map((n: { id: number }) => n.id),
    [second.id, first.id],
  );
  t.is(index[0].user.id, account.admin.id);

  t.deepEqual(await expectOk(api.get(`${notesOf(contact.id)}/${first.id}`), "show"), first);
  t.is((await api.get(`${notesOf(otherContact.id)}/${first.id}`)).status, 404, "a note is found only under its contact");

  const updated = await api.put(`${notesOf(contact.id)}/${first.id}`, { note: { content: "Changed" } });
  t.deepEqual([updated.status, updated.body.content], [200, "Changed"]);
  t.is((await h.knex("notes").where({ id: first.id }).first()).content, "Changed");
  const [changedEvent] = await eventsOf(account.id, "contact_note_updated");
  t.like(changedEvent.payload, { id: first.id, content: "Changed", contact_id: contact.id });

  const deleted = await api.delete(`${notesOf(contact.id)}/${first.id}`);
  t.deepEqual([deleted.status, deleted.body], [200, undefined]);
  t.is(await h.knex("notes").where({ id: first.id }).first(), undefined);
  t.like((await eventsOf(account.id, "contact_note_deleted"))[0].payload, { id: first.id, contact_id: contact.id });
  t.is((await api.delete(`${notesOf(contact.id)}/${first.id}`)).status, 404);
});

test("another account's contact or note is 404; a user outside the account is refused", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const { contact } = await createContact(h, account);
  const note = await expectOk(accountApi(h, account).post(notesOf(contact.id), { note: { content: "Mine" } }), "create");
  const stranger = accountApi(h, { id: account.id }, other.admin.token);
  t.is((await stranger.get(notesOf(contact.id))).status, 401);
  const otherApi = accountApi(h, other);
  t.is((await otherApi.get(notesOf(contact.id))).status, 404);
  t.is((await otherApi.get(`${notesOf(contact.id)}/${note.id}`)).status, 404);
  t.is((await otherApi.post(notesOf(contact.id), { note: { content: "Sneaky" } })).status, 404);
  t.is((await h.knex("notes").where({ contact_id: contact.id })).length, 1);
});

test("an author who left the account is no longer shown; their notes stay", async (t) => {
  const account = await createAccount(h);
  const { contact } = await createContact(h, account);
  const leaver = await createUser(h, { name: "Leaver" });
  await addToAccount(h, account.id, leaver.id, "agent");
  const note = await expectOk(accountApi(h, account, leaver.token).post(notesOf(contact.id), { note: { content: "By a leaver" } }), "create");
  await expectOk(accountApi(h, account).delete(`/agents/${leaver.id}`), "remove agent");
  const shown = await expectOk(accountApi(h, account).get(`${notesOf(contact.id)}/${note.id}`), "show");
  t.is(shown.user, undefined);
  t.is(shown.content, "By a leaver");
});

test("50 notes added at once are all kept; of 50 deletes of one note exactly one deletes it", async (t) => {
  const account = await createAccount(h);
  const { contact } = await createContact(h, account);
  const api = accountApi(h, account, account.agent.token);
  const created = await Promise.all(Array.from({ length: 50 }, (_, i) => api.post(notesOf(contact.id), { note: { content: `n${i}` } })));
  t.true(created.every((r) => r.status === 200));
  t.is((await h.knex("notes").where({ contact_id: contact.id })).length, 50);

  const target = created[0]!.body.id;
  const deletes = await Promise.all(Array.from({ length: 50 }, () => api.delete(`${notesOf(contact.id)}/${target}`)));
  t.is(deletes.filter((r) => r.status === 200).length, 1);
  t.true(deletes.filter((r) => r.status !== 200).every((r) => r.status === 404));
  t.is((await eventsOf(account.id, "contact_note_deleted")).length, 1);

  const updates = await Promise.all(Array.from({ length: 50 }, (_, i) => api.patch(`${notesOf(contact.id)}/${created[1]!.body.id}`, { content: `u${i}` })));
  t.true(updates.every((r) => r.status === 200));
  const final = (await h.knex("notes").where({ id: created[1]!.body.id }).first()).content;
  const events = await eventsOf(account.id, "contact_note_updated");
  t.is(events.at(-1).payload.content, final, "the last event says what is stored");
});
