import test from "ava";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

test("50 parallel renames of one label leave the label and every tagged conversation and contact with the same title", async (t) => {
  const account = await createAccount(h);
  const labels = `/api/v1/accounts/${account.id}/labels`;
  const label = await expectOk(h.request("POST", labels, { token: account.admin.token, body: { title: "start" } }), "label");
  const inbox = await createInbox(h, account);
  const conversations: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { contact, sourceId } = await createContact(h, account, { inbox_id: inbox.id, email: `race${i}@example.com` });
    const conversation = await expectOk(
      h.request("POST", `/api/v1/accounts/${account.id}/conversations`, {
        token: account.admin.token,
        body: { source_id: sourceId, inbox_id: inbox.id, contact_id: contact.id },
      }),
      "conversation",
    );
    conversations.push(conversation.id);
    await expectOk(
      h.request("POST", `/api/v1/accounts/${account.id}/conversations/${conversation.id}/labels`, {
        token: account.admin.token,
        body: { labels: ["start", "keep"] },
      }),
      "conversation labels",
    );
    await expectOk(
      h.request("POST", `/api/v1/accounts/${account.id}/contacts/${contact.id}/labels`, { token: account.admin.token, body: { labels: ["start"] } }),
      "contact labels",
    );
  }

  const renames = await Promise.all(
    Array.from({ length: 50 }, (_, i) => h.request("PATCH", `${labels}/${label.id}`, { token: account.admin.token, body: { title: `title-${i}` } })),
  );
  t.deepEqual(
    renames.map((r) => r.status),
    Array(50).fill(200),
  );

  const { title } = await h.knex("labels").where({ id: label.id }).first();
  const tagged = await h.knex("conversations").where({ account_id: account.id }).whereIn("display_id", conversations).select("labels");
  t.deepEqual(
    tagged.map((row) => row.labels),
    Array(3).fill([title, "keep"]),
  );
  const contacts = await h.knex("contacts").where({ account_id: account.id }).whereRaw("labels <> '{}'").select("labels");
  t.deepEqual(
    contacts.map((row) => row.labels),
    Array(3).fill([title]),
  );
});
