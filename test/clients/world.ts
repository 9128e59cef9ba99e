import { randomUUID } from "node:crypto";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount, createUser, type TestAccount, type TestUser } from "../support/factories";
import { accountApi, expectOk, type Harness } from "../support/harness";

/** Builds a value once, on first use: each operation's test makes only the records it names. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * The records a client points an operation at (the ids an n8n user types into its fields), each made
 * through the API the way any client would, in a fresh account per operation.
 */
export function clientWorld(h: Harness) {
  const account = once(() => createAccount(h, "n8n"));
  const api = async () => accountApi(h, await account());
  const post = async (path: string, body: unknown, what: string) => expectOk((await api()).post(path, body), what);
  const inbox = once(async () => (await createInbox(h, await account(), { name: "n8n inbox" })) as { id: number; inbox_identifier: string });
  const contact = once(async () => {
    const made = await createContact(h, await account(), { inbox_id: (await inbox()).id, phone_number: "+5511988887777" });
    return { id: made.contact.id as number, sourceId: made.sourceId! };
  });
  const publicContact = once(async () => {
    const made = await expectOk(
      h.request("POST", `/public/api/v1/inboxes/${(await inbox()).inbox_identifier}/contacts`, { body: { name: "Visitor" } }),
      "public contact",
    );
    return made.source_id as string;
  });
  const publicConversation = once(async () => {
    const path = `/public/api/v1/inboxes/${(await inbox()).inbox_identifier}/contacts/${await publicContact()}/conversations`;
    return (await expectOk(h.request("POST", path, { body: {} }), "public conversation")).id as number;
  });
  const publicMessage = once(async () => {
    const path = `/public/api/v1/inboxes/${(await inbox()).inbox_identifier}/contacts/${await publicContact()}/conversations/${await publicConversation()}/messages`;
    return (await expectOk(h.request("POST", path, { body: { content: "hello" } }), "public message")).id as number;
  });
  const conversation = once(async () => {
    const { id, sourceId } = await contact();
    return (await post("/conversations", { source_id: sourceId, inbox_id: (await inbox()).id, contact_id: id }, "conversation")).id as number;
  });
  const message = once(async () => (await post(`/conversations/${await conversation()}/messages`, { content: "hi" }, "message")).id as number);
  const team = once(async () => (await post("/teams", { name: `team-${randomUUID().slice(0, 8)}` }, "team")).id as number);
  const cannedResponse = once(async () => (await post("/canned_responses", { short_code: "hi", content: "Hello!" }, "canned response")).id as number);
  const attribute = once(
    async () =>
      (
        await post(
          "/custom_attribute_definitions",
          { attribute_display_name: "Plan", attribute_key: "plan", attribute_model: "contact_attribute", attribute_display_type: "text" },
          "attribute",
        )
      ).id as number,
  );
  const automationRule = once(
    async () =>
      (
        await post(
          "/automation_rules",
          {
            name: "Label help",
            event_name: "message_created",
            conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["help"], query_operator: null }],
            actions: [{ action_name: "add_label", action_params: ["support"] }],
          },
          "automation rule",
        )
      ).id as number,
  );
  const customFilter = once(
    async () =>
      (
        await post(
          "/custom_filters",
          { name: "Open", type: "conversation", query: { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }] } },
          "custom filter",
        )
      ).id as number,
  );
  const webhook = once(
    async () => (await post("/webhooks", { url: "https://example.com/hook", subscriptions: ["message_created"] }, "webhook")).payload.webhook.id as number,
  );
  const accountBot = once(async () => (await post("/agent_bots", { name: "Account bot" }, "account bot")).id as number);
  const platformBot = once(
    async () =>
      (await expectOk(h.request("POST", "/platform/api/v1/agent_bots", { token: h.platformToken, body: { name: "Platform bot" } }), "platform bot"))
        .id as number,
  );
  const platformAccount = once(
    async () =>
      (await expectOk(h.request("POST", "/platform/api/v1/accounts", { token: h.platformToken, body: { name: "Platform made" } }), "platform account"))
        .id as number,
  );
  const hook = once(async () => (await post("/integrations/hooks", { app_id: "dashboard_apps", settings: {} }, "integration hook")).id as number);
  const user = once((): Promise<TestUser> => createUser(h));
  return {
    account: account as () => Promise<TestAccount>,
    inbox,
    contact,
    publicContact,
    publicConversation,
    publicMessage,
    conversation,
    message,
    team,
    cannedResponse,
    attribute,
    automationRule,
    customFilter,
    webhook,
    accountBot,
    platformBot,
    platformAccount,
    hook,
    user,
  };
}

export type ClientWorld = ReturnType<typeof clientWorld>;
