import { createContact, createInbox } from "../test/support/conversationFactories";
import { createAccount } from "../test/support/factories";
import type { Harness } from "../test/support/harness";

/** Where the API cases start: an account with its administrator's token, an API inbox and a contact of it. */
export async function benchAccount(h: Harness) {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  return { account, token: account.admin.token, base: `/api/v1/accounts/${account.id}`, inbox, contact };
}
