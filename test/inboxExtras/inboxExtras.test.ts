import test from "ava";
import { createAccount } from "../support/factories";
import { createContact, createInbox, setInboxMembers } from "../support/conversationFactories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

test("GET inboxes/:id/agent_bot answers the attached bot, or an empty object, to the inbox's members", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  // Agents outside the inbox get 401 (test/inboxes/inboxMembership.test.ts).
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const path = `/api/v1/accounts/${account.id}/inboxes/${inbox.id}/agent_bot`;
  const none = await h.request("GET", path, { token: account.agent.token });
  t.deepEqual([none.status, none.body], [200, { agent_bot: {} }]);

  const bot = await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/agent_bots`, {
      token: account.admin.token,
      body: { name: "Helper", outgoing_url: "https://bot.example.com/hook" },
    }),
    "bot",
  );
  await expectOk(accountApi(h, account).post(`/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: bot.id }), "attach");
  const shown = await h.request("GET", path, { token: account.admin.token });
  t.is(shown.status, 200);
  const botShow = await expectOk(accountApi(h, account).get(`/agent_bots/${bot.id}`), "bot show");
  t.deepEqual(shown.body, { agent_bot: botShow }, "the agent bot partial as the bot endpoints render it");
  const asAgent = await expectOk(h.request("GET", path, { token: account.agent.token }), "agent view");
  t.is(asAgent.agent_bot.id, bot.id);
  t.false("secret" in asAgent.agent_bot, "agents do not see the secret");

  const other = await createAccount(h);
  const foreign = await accountApi(h, other).get(`/inboxes/${inbox.id}/agent_bot`);
  t.deepEqual([foreign.status, foreign.body], [404, { error: "Resource could not be found" }]);
});

test("POST contacts/:id/contact_inboxes links the contact to an inbox and answers source_id with the inbox", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const { contact } = await createContact(h, account, { email: "linked@example.com" });
  const path = `/api/v1/accounts/${account.id}/contacts/${contact.id}/contact_inboxes`;

  const response = await h.request("POST", path, { token: account.admin.token, body: { inbox_id: inbox.id, source_id: "crm-123" } });
  t.is(response.status, 200);
  const inboxShow = await expectOk(accountApi(h, account).get(`/inboxes/${inbox.id}`), "inbox");
  t.deepEqual(response.body, { source_id: "crm-123", inbox: inboxShow });
  const row = await h.knex("contact_inboxes").where({ contact_id: contact.id, inbox_id: inbox.id }).first();
  t.like(row, { source_id: "crm-123" });

  const generated = await expectOk(h.request("POST", path, { token: account.agent.token, body: { inbox_id: inbox.id } }), "uuid");
  t.regex(generated.source_id, /^[0-9a-f-]{36}$/);
  const again = await expectOk(h.request("POST", path, { token: account.agent.token, body: { inbox_id: inbox.id, source_id: "crm-123" } }), "again");
  t.is(again.source_id, "crm-123");
  t.is((await h.knex("contact_inboxes").where({ contact_id: contact.id })).length, 2, "the same source is the same link");

  const { contact: someoneElse } = await createContact(h, account, { email: "else@example.com" });
  const taken = await h.request("POST", `/api/v1/accounts/${account.id}/contacts/${someoneElse.id}/contact_inboxes`, {
    token: account.agent.token,
    body: { inbox_id: inbox.id, source_id: "crm-123" },
  });
  t.deepEqual([taken.status, taken.body], [422, { message: "Source has already been taken", attributes: ["source_id"] }]);

  const noInbox = await h.request("POST", path, { token: account.agent.token, body: { source_id: "x" } });
  t.deepEqual([noInbox.status, noInbox.body], [404, { error: "Resource could not be found" }]);
  const other = await createAccount(h);
  const otherInbox = await createInbox(h, other);
  const foreignInbox = await h.request("POST", path, { token: account.agent.token, body: { inbox_id: otherInbox.id } });
  t.is(foreignInbox.status, 404);
  const foreignContact = await h.request("POST", `/api/v1/accounts/${other.id}/contacts/${contact.id}/contact_inboxes`, {
    token: other.admin.token,
    body: { inbox_id: otherInbox.id },
  });
  t.is(foreignContact.status, 404);
});
