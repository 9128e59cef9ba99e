import { createContact, createInbox } from "../test/support/conversationFactories";
import { createAccount } from "../test/support/factories";
import { expectOk, type Harness } from "../test/support/harness";

/** Where the API cases start: an account with its administrator's token, an API inbox and a contact of it. */
export async function benchAccount(h: Harness) {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  return { account, token: account.admin.token, base: `/api/v1/accounts/${account.id}`, inbox, contact };
}

/**
 * benchAccount with what the load cases read and write: `count` open conversations of its contact, a
 * webhook subscribed to message_created at `webhookUrl`, and `typical`, a contact with one inbox.
 * Each conversation gives `contact` a contact inbox of its own (as Chatwoot does) and GET contact
 * lists them all; `typical` is read as most contacts are.
 */
export async function loadedAccount(h: Harness, webhookUrl: string, count: number) {
  const bench = await benchAccount(h);
  const { account, token, base, inbox, contact } = bench;
  const { contact: typical } = await createContact(h, account, { inbox_id: inbox.id });
  await expectOk(h.request("POST", `${base}/webhooks`, { token, body: { url: webhookUrl, subscriptions: ["message_created"] } }), "webhook");
  const conversations: number[] = [];
  for (let i = 0; i < count; i++) {
    conversations.push(
      (await expectOk(h.request("POST", `${base}/conversations`, { token, body: { inbox_id: inbox.id, contact_id: contact.id } }), "conversation")).id,
    );
  }
  return { ...bench, typical, conversations };
}
