import { createAccount, type TestAccount } from "../support/factories";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { accountApi, expectOk, type Harness } from "../support/harness";

export interface ConversationWorld {
  account: TestAccount;
  inbox: { id: number; name: string };
  contact: { id: number; name: string };
  sourceId: string;
  base: string;
}

/** An account with an API inbox whose only member is the account's agent, and a contact in that inbox. */
export async function conversationWorld(h: Harness, name = "Acme"): Promise<ConversationWorld> {
  const account = await createAccount(h, name);
  const inbox = await createInbox(h, account, { name: "Support" });
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const { contact, sourceId } = await createContact(h, account, { name: "Jane Roe", email: `jane-${account.id}@example.com`, inbox_id: inbox.id });
  return { account, inbox, contact, sourceId: sourceId!, base: `/api/v1/accounts/${account.id}` };
}

/** A conversation created by the administrator; returns the response body. */
export async function createConversation(h: Harness, world: ConversationWorld, body: Record<string, unknown> = {}) {
  return expectOk(
    accountApi(h, world.account).post("/conversations", { inbox_id: world.inbox.id, contact_id: world.contact.id, ...body }),
    "create conversation",
  );
}

export async function postMessage(h: Harness, world: ConversationWorld, displayId: number, body: Record<string, unknown>, token = world.account.admin.token) {
  return h.request("POST", `${world.base}/conversations/${displayId}/messages`, { token, body });
}

/** The outbox rows of a conversation (by display id), oldest first. */
export async function eventsOf(h: Harness, world: ConversationWorld, displayId: number) {
  const conversation = await h.knex("conversations").where({ account_id: world.account.id, display_id: displayId }).first("id");
  return h.knex("events").where({ conversation_id: conversation.id }).orderBy("id");
}

export async function activityTexts(h: Harness, world: ConversationWorld, displayId: number): Promise<string[]> {
  const conversation = await h.knex("conversations").where({ account_id: world.account.id, display_id: displayId }).first("id");
  const rows = await h.knex("messages").where({ conversation_id: conversation.id, message_type: 2 }).orderBy("id").select("content");
  return rows.map((row) => row.content);
}
