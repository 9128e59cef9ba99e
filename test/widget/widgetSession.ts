import { createInbox } from "../support/conversationFactories";
import type { TestAccount } from "../support/factories";
import { expectOk, type Harness } from "../support/harness";

/** A web widget inbox of the account, created as the dashboard creates one. */
export async function widgetInbox(h: Harness, account: TestAccount, channel: Record<string, unknown> = {}, attributes: Record<string, unknown> = {}) {
  return createInbox(h, account, { name: "Shop", channel: { type: "web_widget", website_url: "https://shop.example", ...channel }, ...attributes });
}

export interface WidgetVisitor {
  websiteToken: string;
  authToken: string;
  contactId: number;
  pubsubToken: string;
  /** A widget API request as this visitor, the website token in the query as Chatwoot's widget sends it. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** A new visitor of the widget: a config call without a token, as the widget's first load. */
export async function newVisitor(h: Harness, websiteToken: string): Promise<WidgetVisitor> {
  const session = await expectOk(h.request("POST", `/api/v1/widget/config?website_token=${websiteToken}`), "widget config");
  return visitorOf(h, websiteToken, session.auth_token, session.contact);
}

export function visitorOf(h: Harness, websiteToken: string, authToken: string, contact: { id: number; pubsub_token: string }): WidgetVisitor {
  return {
    websiteToken,
    authToken,
    contactId: contact.id,
    pubsubToken: contact.pubsub_token,
    call: (method, path, body) => {
      const separator = path.includes("?") ? "&" : "?";
      return h.request(method, `/api/v1/widget${path}${separator}website_token=${websiteToken}`, { body, headers: { "X-Auth-Token": authToken } });
    },
  };
}
