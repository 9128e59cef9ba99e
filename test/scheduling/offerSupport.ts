import { createContact } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { accountApi, expectOk, type Harness } from "../support/harness";
import type { LiveClinic } from "./bookingSupport";

/** A contact of the clinic's API inbox talking through the public client API, in a conversation of their own. */
export async function publicChat(h: Harness, c: LiveClinic & { inbox: { id: number; inbox_identifier?: string } }, name = "Mira Contact") {
  const { contact, sourceId } = await createContact(h, c.account, { inbox_id: c.inbox.id, name, phone_number: `+7701${Math.floor(Math.random() * 1e7)}` });
  const base = `/public/api/v1/inboxes/${c.inbox.inbox_identifier}/contacts/${sourceId}/conversations`;
  const conversation = await expectOk(h.request("POST", base, { body: {} }), "public conversation");
  return {
    contact,
    conversationId: conversation.id as number,
    messages: `${base}/${conversation.id}/messages`,
    /** The contact answers the offer's message with one of its items, as the widget does. */
    choose: (messageId: number, item: { title: string; value: string }) =>
      expectOk(h.request("PATCH", `${base}/${conversation.id}/messages/${messageId}`, { body: { submitted_values: [item] } }), "public choice"),
    /** The contact writes a message. */
    say: (content: string) => expectOk(h.request("POST", `${base}/${conversation.id}/messages`, { body: { content } }), "public message"),
  };
}

const offersPath = (c: { account: { id: number } }, conversationId: number) =>
  `/api/v1/accounts/${c.account.id}/conversations/${conversationId}/scheduling/offers`;

export function offerApi(h: Harness, c: LiveClinic, token = c.account.admin.token) {
  return {
    open: (conversationId: number, body: Record<string, unknown>) => h.request("POST", offersPath(c, conversationId), { token, body }),
    get: (conversationId: number, id: number) => h.request("GET", `${offersPath(c, conversationId)}/${id}`, { token }),
  };
}

/** Reads the offer until its status is one of these. */
export async function offerBecomes(h: Harness, c: LiveClinic, conversationId: number, id: number, statuses: string[], timeoutMs = 30_000) {
  const { body } = await eventually(
    () => offerApi(h, c).get(conversationId, id),
    (r) => statuses.includes(r.body.payload?.status),
    `offer ${id} to become ${statuses.join(" or ")}`,
    timeoutMs,
  );
  return body.payload;
}

/** The conversation's messages (account API), oldest first. */
export async function messagesOf(h: Harness, c: LiveClinic, conversationId: number): Promise<any[]> {
  const { body } = await accountApi(h, c.account).get(`/conversations/${conversationId}/messages`);
  return body.payload;
}

/** An agent bot of the account connected to the inbox, with its token. */
export async function inboxBot(h: Harness, c: { account: LiveClinic["account"] }, inboxId: number, name = "Booking Bot") {
  const api = accountApi(h, c.account);
  const bot = await expectOk(api.post("/agent_bots", { name, outgoing_url: "https://bot.test/hook" }), "create bot");
  await expectOk(api.post(`/inboxes/${inboxId}/set_agent_bot`, { agent_bot: bot.id }), "connect bot");
  return { id: bot.id as number, token: bot.access_token as string };
}
