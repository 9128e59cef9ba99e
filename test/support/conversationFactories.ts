import type { Knex } from "knex";
import { accountApi, expectOk, type Harness } from "./harness";
import type { TestAccount } from "./factories";

/** An API-channel inbox created by the account's administrator; returns the inbox as the API shows it. */
export async function createInbox(h: Harness, account: TestAccount, attributes: Record<string, unknown> = {}) {
  return expectOk(accountApi(h, account).post("/inboxes", { name: "Support", channel: { type: "api" }, ...attributes }), "create inbox");
}

/** Makes the given users exactly the members of the inbox. */
export async function setInboxMembers(h: Harness, account: TestAccount, inboxId: number, userIds: number[]) {
  return (await expectOk(accountApi(h, account).patch("/inbox_members", { inbox_id: inboxId, user_ids: userIds }), "set inbox members")).payload;
}

/**
 * A contact created through the API; with an inbox it also has a contact inbox, whose source_id
 * is returned beside the contact.
 */
export async function createContact(h: Harness, account: TestAccount, attributes: Record<string, unknown> = {}) {
  const body = await expectOk(accountApi(h, account).post("/contacts", { name: "Jane Roe", ...attributes }), "create contact");
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
    accountApi(h, account).post("/custom_attribute_definitions", {
      attribute_display_name: key,
      attribute_key: key,
      attribute_model: model,
      attribute_display_type: displayType,
    }),
    "define custom attribute",
  );
}

/**
 * Messages written straight into the table (long histories for tests and benchmarks) leave their
 * conversations as the service's own insert would: the newest incoming message's time noted on the row.
 */
export async function noteRawMessages(knex: Knex, accountId: number): Promise<void> {
  await knex.raw(
    `update conversations c set last_incoming_at = m.newest
     from (select conversation_id, max(created_at) as newest from messages where account_id = ? and message_type = 0 group by conversation_id) m
     where c.id = m.conversation_id and c.last_incoming_at is distinct from m.newest`,
    [accountId],
  );
}
