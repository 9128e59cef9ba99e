import test from "ava";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

const notFound = { error: "Resource could not be found" };

/** An account with two API inboxes (the agent a member of the first only) and a contact known to the first by a source id. */
async function world() {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Texts" });
  const other = await createInbox(h, account, { name: "Private" });
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const sourceId = `src-${account.id}`;
  const { contact } = await createContact(h, account, { name: "Jane Roe", email: `jane-${account.id}@example.com`, inbox_id: inbox.id, source_id: sourceId });
  return { account, inbox, other, contact, sourceId };
}

test("contact_inboxes/filter answers the contact an inbox knows by a source id, as the contact partial with its inboxes", async (t) => {
  const { account, inbox, contact, sourceId } = await world();
  const response = await h.request("POST", `/api/v1/accounts/${account.id}/contact_inboxes/filter`, {
    token: account.agent.token,
    body: { inbox_id: inbox.id, source_id: sourceId },
  });
  t.is(response.status, 200);
  // The same contact the contact endpoints render, bare (not under payload).
  const shown = await expectOk(accountApi(h, account).get(`/contacts/${contact.id}`), "show");
  t.deepEqual(response.body, shown.payload);
  t.like(response.body, { id: contact.id, name: "Jane Roe", email: `jane-${account.id}@example.com` });
  t.deepEqual(
    response.body.contact_inboxes.map((ci: { source_id: string; inbox: { id: number } }) => [ci.source_id, ci.inbox.id]),
    [[sourceId, inbox.id]],
  );
  // Ids as strings, as forms and clients that quote them send them.
  const quoted = await accountApi(h, account).post("/contact_inboxes/filter", { inbox_id: String(inbox.id), source_id: sourceId });
  t.is(quoted.body.id, contact.id);
});

test("contact_inboxes/filter: an unknown source id is 404 with an empty body; blank is as unknown", async (t) => {
  const { account, inbox, other, sourceId } = await world();
  const api = accountApi(h, account);
  for (const source_id of ["nope", "", "   ", null, undefined]) {
    const response = await api.post("/contact_inboxes/filter", { inbox_id: inbox.id, source_id });
    t.deepEqual([response.status, response.body], [404, undefined], `source_id ${JSON.stringify(source_id)}`);
  }
  // The source id of another inbox's contact inbox names nobody here.
  const elsewhere = await api.post("/contact_inboxes/filter", { inbox_id: other.id, source_id: sourceId });
  t.deepEqual([elsewhere.status, elsewhere.body], [404, undefined]);
  // A number is taken as its digits.
  const { contact: numbered } = await createContact(h, account, { name: "Num", inbox_id: inbox.id, source_id: "12345" });
  const byNumber = await api.post("/contact_inboxes/filter", { inbox_id: inbox.id, source_id: 12345 });
  t.is(byNumber.body.id, numbered.id);
});

test("contact_inboxes/filter: the inbox must be the account's (404) and one the agent belongs to (401)", async (t) => {
  const { account, other, sourceId } = await world();
  const agent = accountApi(h, account, account.agent.token);
  for (const inbox_id of [undefined, "", 0, "0", 99_999_999]) {
    const response = await agent.post("/contact_inboxes/filter", { inbox_id, source_id: sourceId });
    t.deepEqual([response.status, response.body], [404, notFound], `inbox_id ${JSON.stringify(inbox_id)}`);
  }
  const unseen = await agent.post("/contact_inboxes/filter", { inbox_id: other.id, source_id: sourceId });
  t.deepEqual([unseen.status, unseen.body], [401, { error: "You are not authorized to do this action" }]);
  const byAdmin = await accountApi(h, account).post("/contact_inboxes/filter", { inbox_id: other.id, source_id: sourceId });
  t.is(byAdmin.status, 404, "administrators see every inbox; this one knows no such source");

  const stranger = await world();
  const foreign = await accountApi(h, stranger.account).post("/contact_inboxes/filter", { inbox_id: other.id, source_id: sourceId });
  t.deepEqual([foreign.status, foreign.body], [404, notFound], "another account's inbox is unknown");
  const outsider = await h.request("POST", `/api/v1/accounts/${account.id}/contact_inboxes/filter`, {
    token: stranger.account.admin.token,
    body: { inbox_id: other.id, source_id: sourceId },
  });
  t.deepEqual([outsider.status, outsider.body], [401, { error: "You are not authorized to access this account" }]);
  const bot = await expectOk(accountApi(h, account).post("/agent_bots", { name: "Bot" }), "bot");
  const asBot = await accountApi(h, account, bot.access_token).post("/contact_inboxes/filter", { inbox_id: other.id, source_id: sourceId });
  t.deepEqual([asBot.status, asBot.body], [401, { error: "Access to this endpoint is not authorized for bots" }]);
  const malformed = await agent.post("/contact_inboxes/filter", { inbox_id: other.id, source_id: { a: 1 } });
  t.is(malformed.status, 422);
});
