import ChatwootClient from "@figuro/chatwoot-sdk";
import test from "ava";
import { createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { pngOf, requestForm } from "../support/forms";
import { accountApi, expectOk, quickRetries, tempStorage, useHarness } from "../support/harness";
import { Receiver } from "../support/receiver";

/**
 * The message flows of the Evolution API and WAHA WhatsApp integrations, as they call the API: look
 * the contact up by phone, create it and a conversation, post the customer's message (an image, as
 * multipart), answer it, see message_created at a webhook, mark messages read, toggle the status,
 * and update the contact as they do (avatar: null, their own custom attribute keys).
 */

const h = useHarness(test, { relay: true, settings: { storage: tempStorage(), delivery: quickRetries() } });

let receiver: Receiver;
test.before(async () => {
  receiver = await new Receiver().start();
});
test.after.always(() => receiver?.stop());

function sdkFor(token: string): any {
  return new ChatwootClient({ config: { basePath: h.baseUrl, with_credentials: false, credentials: "omit", token } });
}

async function setUp(name: string) {
  const account = await createAccount(h, name);
  const inbox = (await createInbox(h, account, { name: "WhatsApp" })) as { id: number; inbox_identifier: string };
  await expectOk(accountApi(h, account).post("/webhooks", { url: receiver.url, subscriptions: ["message_created"] }), "webhook");
  return { account, inbox, sdk: sdkFor(account.admin.token), accountId: account.id };
}

const byPhone = (phone: string) => [
  { attribute_key: "identifier", filter_operator: "equal_to", values: [`${phone}@s.whatsapp.net`], query_operator: "OR" },
  { attribute_key: "phone_number", filter_operator: "equal_to", values: [phone] },
];

/** The customer's photo, posted as the integrations post it: multipart with `attachments[]`. */
async function incomingPhoto(path: string, token?: string, extra: [string, string][] = []) {
  const png = await pngOf(6, 6);
  return expectOk(
    requestForm(h, "POST", path, [["content", "look at this"], ...extra, ["attachments[]", { filename: "photo.png", content: png, type: "image/png" }]], token),
    "incoming photo",
  );
}

/**
 * message_created events (activity messages left out) the receiver got for one account's conversation
 * (its display id), in the order their messages were made: a lane posts up to 32 deliveries at once,
 * so they may arrive in any order, as Chatwoot's do.
 */
function createdEvents(account: TestAccount, conversationId: number) {
  return receiver.requests
    .filter(
      (r) =>
        r.body?.event === "message_created" &&
        r.body.account?.id === account.id &&
        r.body.conversation?.id === conversationId &&
        ["incoming", "outgoing"].includes(r.body.message_type),
    )
    .sort((a, b) => a.body.id - b.body.id);
}

test("Evolution API: lookup by phone, contact and conversation, incoming photo, reply, webhook, read, status, contact update", async (t) => {
  const { account, inbox, sdk, accountId } = await setUp("Evolution");
  const phone = "5511912345678";
  t.is((await sdk.contacts.filter({ accountId, payload: byPhone(phone) })).payload.length, 0);

  const created = await sdk.contacts.create({
    accountId,
    data: { inbox_id: inbox.id, name: "Cliente", phone_number: `+${phone}`, identifier: `${phone}@s.whatsapp.net`, avatar_url: "" },
  });
  const contact = created.payload.contact;
  const found = await sdk.contacts.filter({ accountId, payload: byPhone(phone) });
  t.deepEqual(
    found.payload.map((c: { id: number }) => c.id),
    [contact.id],
  );

  const conversation = await sdk.conversations.create({ accountId, data: { contact_id: String(contact.id), inbox_id: String(inbox.id), status: "pending" } });
  t.is(conversation.status, "pending");
  const path = `/api/v1/accounts/${accountId}/conversations/${conversation.id}/messages`;
  const incoming = await incomingPhoto(path, account.admin.token, [
    ["message_type", "incoming"],
    ["source_id", "WAID:3EB0ABC"],
  ]);
  t.like(incoming, { message_type: 0, source_id: "WAID:3EB0ABC" });
  t.is(incoming.attachments[0].file_type, "image");

  const reply = await sdk.messages.create({
    accountId,
    conversationId: conversation.id,
    data: { content: "Olá! Como posso ajudar?", message_type: "outgoing", private: false },
  });
  await receiver.waitFor(() => createdEvents(account, conversation.id).length >= 2);
  const [photoEvent, replyEvent] = createdEvents(account, conversation.id);
  t.like(photoEvent!.body, { id: incoming.id, message_type: "incoming", content: "look at this" });
  t.true(photoEvent!.body.attachments[0].data_url.startsWith("http"));
  t.like(replyEvent!.body, { id: reply.id, message_type: "outgoing", content: "Olá! Como posso ajudar?" });

  // WhatsApp's read receipt for the reply, and the agent reading the customer's photo.
  t.like(await sdk.messages.update({ accountId, conversationId: conversation.id, messageId: reply.id, data: { status: "read" } }), { status: "read" });
  await expectOk(accountApi(h, account).post(`/conversations/${conversation.id}/update_last_seen`, {}), "update_last_seen");

  t.is((await sdk.conversations.toggleStatus({ accountId, conversationId: conversation.id, data: { status: "open" } })).payload.current_status, "open");
  t.is((await sdk.conversations.toggleStatus({ accountId, conversationId: conversation.id, data: { status: "resolved" } })).payload.current_status, "resolved");

  const updated = await sdk.contacts.update({
    accountId,
    id: contact.id,
    data: { name: "Cliente Silva", avatar: null, custom_attributes: { evolution_instance: "main" } },
  });
  t.like(updated.payload, { name: "Cliente Silva", thumbnail: "", custom_attributes: { evolution_instance: "main" } });
});

test("WAHA: public API contact and conversation, incoming photo, reply, webhook, read, status, contact update", async (t) => {
  const { account, inbox, sdk, accountId } = await setUp("WAHA");
  const phone = "5511987654321";
  const base = `/public/api/v1/inboxes/${inbox.inbox_identifier}`;
  t.is((await sdk.contacts.filter({ accountId, payload: byPhone(phone) })).meta.count, 0);

  const visitor = await sdk.client.contacts.create({
    inboxIdentifier: inbox.inbox_identifier,
    data: { identifier: `${phone}@c.us`, name: "Maria", phone_number: `+${phone}`, avatar_url: "" },
  });
  const found = await sdk.contacts.filter({ accountId, payload: [{ attribute_key: "phone_number", filter_operator: "equal_to", values: [`+${phone}`] }] });
  t.deepEqual(
    found.payload.map((c: { id: number }) => c.id),
    [visitor.id],
  );
  const contactIdentifier = visitor.source_id as string;

  const conversation = await sdk.client.conversations.create({ inboxIdentifier: inbox.inbox_identifier, contactIdentifier });
  const incoming = await incomingPhoto(`${base}/contacts/${contactIdentifier}/conversations/${conversation.id}/messages`);
  t.like(incoming, { message_type: 0, content: "look at this" });
  t.is(incoming.attachments[0].file_type, "image");

  const reply = await sdk.messages.create({ accountId, conversationId: conversation.id, data: { content: "Oi Maria", message_type: "outgoing" } });
  await receiver.waitFor(() => createdEvents(account, conversation.id).length >= 2);
  const events = createdEvents(account, conversation.id);
  t.deepEqual(
    events.map((e) => e.body.id),
    [incoming.id, reply.id],
  );
  t.is(events[0]!.body.sender.id, visitor.id);

  // The customer read the reply: WAHA reports it through the public API's last seen.
  await expectOk(
    h.request("POST", `${base}/contacts/${contactIdentifier}/conversations/${conversation.id}/update_last_seen`, { body: {} }),
    "contact last seen",
  );
  t.like(await sdk.messages.update({ accountId, conversationId: conversation.id, messageId: reply.id, data: { status: "read" } }), { status: "read" });

  t.is((await sdk.conversations.toggleStatus({ accountId, conversationId: conversation.id, data: { status: "resolved" } })).payload.current_status, "resolved");
  t.is((await sdk.conversations.toggleStatus({ accountId, conversationId: conversation.id, data: { status: "open" } })).payload.current_status, "open");

  const updated = await sdk.contacts.update({ accountId, id: visitor.id, data: { avatar: null, custom_attributes: { waha_whatsapp_jid: `${phone}@c.us` } } });
  t.like(updated.payload, { name: "Maria", thumbnail: "", custom_attributes: { waha_whatsapp_jid: `${phone}@c.us` } });
});
