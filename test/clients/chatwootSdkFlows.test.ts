import ChatwootClient, { ApiError } from "@figuro/chatwoot-sdk";
import type { ContactsApi } from "@figuro/chatwoot-sdk/dist/services/client/Contacts";
import type { ConversationsApi } from "@figuro/chatwoot-sdk/dist/services/client/Conversations";
import type { MessagesApi } from "@figuro/chatwoot-sdk/dist/services/client/Messages";
import test from "ava";
import { createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { pngOf } from "../support/forms";
import { tempStorage, useHarness } from "../support/harness";

/**
 * @figuro/chatwoot-sdk (the client Evolution API and WAHA build on), driven unchanged against the
 * real API: its account-level messages post multipart bodies, its public client's JSON.
 */

const h = useHarness(test, { settings: { storage: tempStorage() } });

function sdkFor(token?: string) {
  return new ChatwootClient({ config: { basePath: h.baseUrl, with_credentials: false, credentials: "omit", token } });
}

/** The public client APIs: the SDK builds them in its constructor but types `client` as `{}`. */
type PublicClient = { contacts: ContactsApi; conversations: ConversationsApi; messages: MessagesApi };
const publicClient = (sdk: ChatwootClient) => sdk.client as PublicClient;

async function apiInbox(account: TestAccount) {
  return (await createInbox(h, account, { name: "WhatsApp" })) as { id: number; inbox_identifier: string };
}

test("account API through the SDK: contacts create/get/update/search/filter, conversations create/list/get/toggle status/filter", async (t) => {
  const account = await createAccount(h);
  const inbox = await apiInbox(account);
  const sdk = sdkFor(account.admin.token);
  const accountId = account.id;

  const created: any = await sdk.contacts.create({
    accountId,
    data: { inbox_id: inbox.id, name: "Ann Lee", phone_number: "+5511999990001", identifier: "5511999990001@s.whatsapp.net" },
  });
  const contact = created.payload.contact;
  const sourceId = created.payload.contact_inbox.source_id;
  t.like(contact, { name: "Ann Lee", phone_number: "+5511999990001" });
  t.is(typeof sourceId, "string");

  const shown: any = await sdk.contacts.get({ accountId, id: contact.id });
  t.like(shown.payload, { id: contact.id, identifier: "5511999990001@s.whatsapp.net" });

  const updated: any = await sdk.contacts.update({ accountId, id: contact.id, data: { name: "Ann Lee Souza", email: "ann@example.com" } });
  t.like(updated.payload, { id: contact.id, name: "Ann Lee Souza", email: "ann@example.com" });

  const found: any = await sdk.contacts.search({ accountId, q: "Souza" });
  t.deepEqual(
    found.payload.map((c: { id: number }) => c.id),
    [contact.id],
  );
  t.like(found.meta, { count: 1, has_more: false });

  // What Evolution API sends before each message: the identifier or the phone without its "+", ORed.
  const filtered: any = await sdk.contacts.filter({
    accountId,
    payload: [
      { attribute_key: "identifier", filter_operator: "equal_to", values: ["nobody@s.whatsapp.net"], query_operator: "OR" },
      { attribute_key: "phone_number", filter_operator: "equal_to", values: ["5511999990001"] },
    ] as never,
  });
  t.is(filtered.meta.count, 1);
  t.is(filtered.payload[0].id, contact.id);
  t.deepEqual(
    filtered.payload[0].contact_inboxes.map((ci: { inbox: { id: number } }) => ci.inbox.id),
    [inbox.id],
  );
  const refused = await t.throwsAsync(
    sdk.contacts.filter({ accountId, payload: [{ attribute_key: "shoe_size", filter_operator: "equal_to", values: ["42"] }] as never }),
  );
  t.true(refused instanceof ApiError);
  t.is((refused as ApiError).status, 422);
  t.regex((refused as ApiError).body.error, /^Invalid attribute key - \[shoe_size\]/);

  const conversation: any = await sdk.conversations.create({
    accountId,
    data: { source_id: sourceId, inbox_id: String(inbox.id), contact_id: String(contact.id) } as never,
  });
  t.like(conversation, { inbox_id: inbox.id, status: "open", account_id: accountId });

  const list: any = await sdk.conversations.list({ accountId });
  t.deepEqual(
    list.data.payload.map((c: { id: number }) => c.id),
    [conversation.id],
  );
  t.like(list.data.meta, { all_count: 1 });

  const got: any = await sdk.conversations.get({ accountId, conversationId: conversation.id });
  t.like(got, { id: conversation.id, meta: { sender: { id: contact.id } } });

  const toggled: any = await sdk.conversations.toggleStatus({ accountId, conversationId: conversation.id, data: { status: "resolved" } as never });
  t.like(toggled.payload, { success: true, conversation_id: conversation.id, current_status: "resolved" });

  const resolved: any = await sdk.conversations.filter({
    accountId,
    payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["resolved"] }] as never,
  });
  t.deepEqual(
    resolved.payload.map((c: { id: number }) => c.id),
    [conversation.id],
  );
  t.deepEqual(resolved.meta, { mine_count: 0, unassigned_count: 1, all_count: 1 });
});

test("public client API through the SDK: contact, conversation, messages", async (t) => {
  const account = await createAccount(h);
  const inbox = await apiInbox(account);
  const client = publicClient(sdkFor());
  const inboxIdentifier = inbox.inbox_identifier;

  const contact: any = await client.contacts.create({ inboxIdentifier, data: { name: "Bea", email: "bea@example.com", phone_number: "+5511999990002" } });
  t.like(contact, { name: "Bea", email: "bea@example.com" });
  const contactIdentifier = contact.source_id as string;

  const shown: any = await client.contacts.get({ inboxIdentifier, contactIdentifier });
  t.deepEqual(shown, contact);
  const updated: any = await client.contacts.update({ inboxIdentifier, contactIdentifier, data: { name: "Bea Lima" } });
  t.like(updated, { id: contact.id, name: "Bea Lima", phone_number: "+5511999990002" });

  const conversation: any = await client.conversations.create({ inboxIdentifier, contactIdentifier });
  t.like(conversation, { inbox_id: inbox.id, status: "open", messages: [], contact: { id: contact.id } });
  const conversations: any = await client.conversations.list({ inboxIdentifier, contactIdentifier });
  t.deepEqual(
    conversations.map((c: { id: number }) => c.id),
    [conversation.id],
  );

  const message: any = await client.messages.create({
    inboxIdentifier,
    contactIdentifier,
    conversationId: conversation.id,
    data: { content: "Oi, tudo bem?", echo_id: "e-1" },
  });
  t.like(message, { content: "Oi, tudo bem?", message_type: 0, conversation_id: conversation.id, sender: { id: contact.id } });
  const messages: any = await client.messages.list({ inboxIdentifier, contactIdentifier, conversationId: conversation.id });
  t.deepEqual(
    messages.map((m: { id: number }) => m.id),
    [message.id],
  );
  const answered: any = await client.messages.update({
    inboxIdentifier,
    contactIdentifier,
    conversationId: conversation.id,
    messageId: message.id,
    data: { submitted_values: [{ value: "yes" }] },
  });
  t.deepEqual(answered.content_attributes, { submitted_values: [{ value: "yes" }] });

  const missing = await t.throwsAsync(client.contacts.get({ inboxIdentifier: "no-such-inbox", contactIdentifier }));
  t.is((missing as ApiError).status, 404);

  // The agent sees the contact's message in the account API.
  const agentView: any = await sdkFor(account.admin.token).conversations.get({ accountId: account.id, conversationId: conversation.id });
  t.is(agentView.messages[0].content, "Oi, tudo bem?");
});

test("messages through the SDK: create as multipart with and without an attachment, update a status", async (t) => {
  const account = await createAccount(h);
  const inbox = await apiInbox(account);
  const sdk = sdkFor(account.admin.token);
  const accountId = account.id;
  const created: any = await sdk.contacts.create({ accountId, data: { inbox_id: inbox.id, name: "Cai" } });
  const conversation: any = await sdk.conversations.create({
    accountId,
    data: { source_id: created.payload.contact_inbox.source_id, inbox_id: String(inbox.id) } as never,
  });
  const conversationId = conversation.id as number;

  const text: any = await sdk.messages.create({ accountId, conversationId, data: { content: "Olá!", message_type: "outgoing", private: false } });
  t.like(text, { content: "Olá!", message_type: 1, private: false, conversation_id: conversationId });
  t.false("attachments" in text);

  const incoming: any = await sdk.messages.create({ accountId, conversationId, data: { content: "from the customer", message_type: "incoming" } });
  t.like(incoming, { message_type: 0, sender: { id: created.payload.contact.id, type: "contact" } });

  const png = await pngOf(4, 4);
  const withFile: any = await sdk.messages.create({
    accountId,
    conversationId,
    data: { content: "a photo", attachments: [{ content: png.toString("base64"), encoding: "base64", filename: "photo.png" }] } as never,
  });
  t.is(withFile.content, "a photo");
  t.is(withFile.attachments.length, 1);
  t.like(withFile.attachments[0], { message_id: withFile.id, file_type: "image", extension: "png", file_size: png.length });

  const onlyFile: any = await sdk.messages.create({
    accountId,
    conversationId,
    data: { attachments: [{ content: "hello file", encoding: "utf8", filename: "note.txt" }] } as never,
  });
  t.is(onlyFile.content, null);
  t.like(onlyFile.attachments[0], { file_type: "file", extension: "txt", file_size: 10 });

  const delivered: any = await sdk.messages.update({ accountId, conversationId, messageId: text.id, data: { status: "delivered" } as never });
  t.like(delivered, { id: text.id, status: "delivered" });

  const list: any = await sdk.messages.list({ accountId, conversationId });
  t.deepEqual(
    list.payload.filter((m: { message_type: number }) => m.message_type !== 2).map((m: { id: number }) => m.id),
    [text.id, incoming.id, withFile.id, onlyFile.id],
  );
});
