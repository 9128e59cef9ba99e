import type { ApiResponse, Harness } from "./harness";
import type { TestAccount } from "./factories";

function expectOk(response: ApiResponse, what: string) {
  if (response.status !== 200) throw new Error(`${what} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** An API-channel inbox created by the account's administrator; returns the inbox as the API shows it. */
export async function createInbox(h: Harness, account: TestAccount, attributes: Record<string, unknown> = {}) {
  return expectOk(
    await h.request("POST", `/api/v1/accounts/${account.id}/inboxes`, {
      token: account.admin.token,
      body: { name: "Support", channel: { type: "api" }, ...attributes },
    }),
    "create inbox",
  );
}

/** Makes the given users exactly the members of the inbox. */
export async function setInboxMembers(h: Harness, account: TestAccount, inboxId: number, userIds: number[]) {
  return expectOk(
    await h.request("PATCH", `/api/v1/accounts/${account.id}/inbox_members`, {
      token: account.admin.token,
      body: { inbox_id: inboxId, user_ids: userIds },
    }),
    "set inbox members",
  ).payload;
}

/**
 * A contact created through the API; with an inbox it also has a contact inbox, whose source_id
 * is returned beside the contact.
 */
export async function createContact(h: Harness, account: TestAccount, attributes: Record<string, unknown> = {}) {
  const body = expectOk(
    await h.request("POST", `/api/v1/accounts/${account.id}/contacts`, { token: account.admin.token, body: { name: "Jane Roe", ...attributes } }),
    "create contact",
  );
  return { contact: body.payload.contact, sourceId: body.payload.contact_inbox.source_id as string | null };
}

/** A custom attribute definition, created by the account's administrator. */
export async function defineAttribute(
  h: Harness,
  account: TestAccount,
  model: "contact_attribute" | "conversation_attribute",
  key: string,
  displayType: "text" | "number" | "date" | "checkbox" | "list" = "text",
) {
  return expectOk(
    await h.request("POST", `/api/v1/accounts/${account.id}/custom_attribute_definitions`, {
      token: account.admin.token,
      body: { attribute_display_name: key, attribute_key: key, attribute_model: model, attribute_display_type: displayType },
    }),
    "define custom attribute",
  );
}
