import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, expectOk, type Harness } from "../support/harness";
import { type CableSubscription, subscribeRoom } from "./cableClient";

export interface RealtimeWorld {
  account: TestAccount;
  /** The agent is a member of this inbox alone. */
  ownInbox: { id: number };
  otherInbox: { id: number };
  contact: { id: number };
}

/** An account whose agent belongs to one of its two API inboxes, and a contact. */
export async function realtimeWorld(h: Harness, name = "Live"): Promise<RealtimeWorld> {
  const account = await createAccount(h, name);
  const ownInbox = await createInbox(h, account, { name: "Mine" });
  const otherInbox = await createInbox(h, account, { name: "Theirs" });
  await setInboxMembers(h, account, ownInbox.id, [account.agent.id]);
  const { contact } = await createContact(h, account, { name: "Vera Visitor" });
  return { account, ownInbox, otherInbox, contact };
}

/** A conversation of the inbox with the world's contact: its display id and its contact inbox's pubsub_token. */
export async function openConversation(h: Harness, world: RealtimeWorld, inboxId: number): Promise<{ displayId: number; visitorToken: string }> {
  const body = await expectOk(accountApi(h, world.account).post("/conversations", { inbox_id: inboxId, contact_id: world.contact.id }), "create conversation");
  const row = await h
    .knex("conversations")
    .join("contact_inboxes", "contact_inboxes.id", "conversations.contact_inbox_id")
    .where({ "conversations.account_id": world.account.id, "conversations.display_id": body.id })
    .first("contact_inboxes.pubsub_token");
  return { displayId: body.id, visitorToken: row.pubsub_token };
}

export async function pubsubTokenOf(h: Harness, userId: number): Promise<string> {
  return (await h.knex("users").where({ id: userId }).first("pubsub_token")).pubsub_token;
}

/** A user's RoomChannel subscription in the account, confirmed. */
export async function subscribeAgent(h: Harness, accountId: number, userId: number, baseUrl = h.baseUrl): Promise<CableSubscription> {
  const cable = subscribeRoom(baseUrl, { pubsub_token: await pubsubTokenOf(h, userId), account_id: accountId, user_id: userId });
  if (!(await cable.outcome)) throw new Error(`user ${userId}'s subscription was rejected`);
  return cable;
}

/** A widget visitor's RoomChannel subscription, confirmed. */
export async function subscribeVisitor(baseUrl: string, pubsubToken: string): Promise<CableSubscription> {
  const cable = subscribeRoom(baseUrl, { pubsub_token: pubsubToken });
  if (!(await cable.outcome)) throw new Error("the visitor's subscription was rejected");
  return cable;
}

export function postMessage(h: Harness, world: RealtimeWorld, displayId: number, body: Record<string, unknown>, token = world.account.admin.token) {
  return expectOk(h.request("POST", `/api/v1/accounts/${world.account.id}/conversations/${displayId}/messages`, { token, body }), "post message");
}
