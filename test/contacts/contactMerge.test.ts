import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { createContact, createInbox } from "../support/conversationFactories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const mergePath = (account: TestAccount) => `/api/v1/accounts/${account.id}/actions/contact_merge`;

async function defineContactAttributes(account: TestAccount, keys: string[]) {
  for (const key of keys) {
    await h.request("POST", `/api/v1/accounts/${account.id}/custom_attribute_definitions`, {
      token: account.admin.token,
      body: { attribute_display_name: key, attribute_key: key, attribute_model: 1 },
    });
  }
}

/** A conversation with one message from the contact, written directly: conversations belong to another module. */
async function conversationOf(account: TestAccount, contactId: number, inboxId: number) {
  const [conversation] = await h
    .knex("conversations")
    .insert({ account_id: account.id, display_id: Math.floor(Math.random() * 1e9), uuid: crypto.randomUUID(), inbox_id: inboxId, contact_id: contactId })
    .returning("*");
  const [message] = await h
    .knex("messages")
    .insert({
      account_id: account.id,
      inbox_id: inboxId,
      conversation_id: conversation.id,
      content: "hi",
      message_type: 0,
      sender_type: "Contact",
      sender_id: contactId,
    })
    .returning("*");
  return { conversation, message };
}

test("merge moves conversations, messages, contact inboxes and notes; base values win, blanks filled, nested attributes deep-merged", async (t) => {
  const account = await createAccount(h);
  await defineContactAttributes(account, ["plan", "region"]);
  const inbox = await createInbox(h, account);
  const otherInbox = await createInbox(h, account);
  const base = (
    await createContact(h, account, {
      name: "Base",
      email: "base@example.com",
      inbox_id: inbox.id,
      custom_attributes: { plan: "pro" },
      additional_attributes: { social: { twitter: "@base" }, city: "Rome" },
    })
  ).contact;
  const mergee = (
    await createContact(h, account, {
      name: "Mergee",
      email: "mergee@example.com",
      phone_number: "+393331234567",
      identifier: "ext-9",
      inbox_id: otherInbox.id,
      custom_attributes: { plan: "free", region: "EU" },
      additional_attributes: { social: { linkedin: "mergee" }, city: "Milan", company_name: "M Inc" },
    })
  ).contact;
  const { conversation, message } = await conversationOf(account, mergee.id, otherInbox.id);
  await h.knex("notes").insert({ account_id: account.id, contact_id: mergee.id, user_id: account.admin.id, content: "call back" });

  const response = await h.request("POST", mergePath(account), {
    token: account.agent.token,
    body: { base_contact_id: base.id, mergee_contact_id: mergee.id },
  });
  t.is(response.status, 200);
  t.like(response.body, {
    id: base.id,
    name: "Base",
    email: "base@example.com",
    phone_number: "+393331234567",
    identifier: "ext-9",
    custom_attributes: { plan: "pro", region: "EU" },
    additional_attributes: { social: { twitter: "@base", linkedin: "mergee" }, city: "Rome", company_name: "M Inc" },
  });
  t.false("contact_inboxes" in response.body);

  t.is(await h.knex("contacts").where("id", mergee.id).first(), undefined);
  t.is((await h.knex("conversations").where("id", conversation.id).first()).contact_id, base.id);
  t.is((await h.knex("messages").where("id", message.id).first()).sender_id, base.id);
  t.deepEqual(
    (await h.knex("contact_inboxes").where("contact_id", base.id).orderBy("id")).map((ci) => ci.inbox_id),
    [inbox.id, otherInbox.id],
  );
  t.is((await h.knex("notes").where("contact_id", base.id)).length, 1);
});

test("merging a contact with itself, a missing contact or another account's contact is refused and changes nothing", async (t) => {
  const account = await createAccount(h);
  const stranger = await createAccount(h);
  const { contact } = await createContact(h, account, { name: "Solo" });
  const { contact: foreign } = await createContact(h, stranger, { name: "Foreign" });

  const self = await h.request("POST", mergePath(account), {
    token: account.admin.token,
    body: { base_contact_id: contact.id, mergee_contact_id: contact.id },
  });
  t.is(self.status, 422);
  t.deepEqual(self.body, { error: "A contact cannot be merged with itself" });

  for (const body of [
    { base_contact_id: contact.id, mergee_contact_id: foreign.id },
    { base_contact_id: foreign.id, mergee_contact_id: contact.id },
    { base_contact_id: contact.id, mergee_contact_id: 999999999 },
  ]) {
    const response = await h.request("POST", mergePath(account), { token: account.admin.token, body });
    t.is(response.status, 404, JSON.stringify(body));
    t.deepEqual(response.body, { error: "Resource could not be found" });
  }
  const missing = await h.request("POST", mergePath(account), { token: account.admin.token, body: { base_contact_id: contact.id } });
  t.is(missing.status, 422);
  t.deepEqual(missing.body.attributes, ["mergee_contact_id"]);
  t.truthy(await h.knex("contacts").where("id", contact.id).first());
  t.truthy(await h.knex("contacts").where("id", foreign.id).first());
});

test("a failure part way through leaves both contacts and their records untouched", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const { contact: base } = await createContact(h, account, { name: "Base", inbox_id: inbox.id });
  const { contact: mergee } = await createContact(h, account, { name: "Mergee", email: "m@example.com", inbox_id: inbox.id });
  const { conversation } = await conversationOf(account, mergee.id, inbox.id);
  await h.knex("notes").insert({ account_id: account.id, contact_id: mergee.id, content: "note" });

  // Deleting this mergee fails after its conversations, messages and contact inboxes have moved.
  const fn = `refuse_delete_${mergee.id}`;
  await h.knex.raw(`CREATE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`);
  await h.knex.raw(`CREATE TRIGGER ${fn} BEFORE DELETE ON contacts FOR EACH ROW WHEN (OLD.id = ${mergee.id}) EXECUTE FUNCTION ${fn}()`);
  try {
    const response = await h.request("POST", mergePath(account), {
      token: account.admin.token,
      body: { base_contact_id: base.id, mergee_contact_id: mergee.id },
    });
    t.is(response.status, 500);
  } finally {
    await h.knex.raw(`DROP TRIGGER ${fn} ON contacts`);
    await h.knex.raw(`DROP FUNCTION ${fn}()`);
  }
  t.like(await h.knex("contacts").where("id", mergee.id).first(), { name: "Mergee", email: "m@example.com" });
  t.like(await h.knex("contacts").where("id", base.id).first(), { name: "Base", email: null });
  t.is((await h.knex("conversations").where("id", conversation.id).first()).contact_id, mergee.id);
  t.is((await h.knex("messages").where("conversation_id", conversation.id).first()).sender_id, mergee.id);
  t.is((await h.knex("contact_inboxes").where("contact_id", mergee.id)).length, 1);
  t.is((await h.knex("notes").where("contact_id", mergee.id)).length, 1);
  t.is((await h.knex("events").where({ account_id: account.id, name: "contact_updated" })).length, 0);
});
