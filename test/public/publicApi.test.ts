import { createHmac } from "node:crypto";
import test from "ava";
import { createInbox, defineAttribute } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, expectOk, quickRetries, tempStorage, useHarness } from "../support/harness";
import { pngOf, requestForm } from "../support/forms";
import { Receiver } from "../support/receiver";

const h = useHarness(test, { relay: true, settings: { delivery: quickRetries(), storage: tempStorage() } });

interface World {
  account: TestAccount;
  inbox: { id: number; inbox_identifier: string; hmac_token: string };
  base: string;
}

async function world(channel: Record<string, unknown> = {}): Promise<World> {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "API", channel: { type: "api", ...channel } });
  return { account, inbox, base: `/public/api/v1/inboxes/${inbox.inbox_identifier}` };
}

const hashOf = (w: World, identifier: string) => createHmac("sha256", w.inbox.hmac_token).update(identifier).digest("hex");

async function publicContact(w: World, body: Record<string, unknown> = {}) {
  return expectOk(h.request("POST", `${w.base}/contacts`, { body: { name: "Ann", ...body } }), "public contact create");
}

async function publicConversation(w: World, sourceId: string, body: Record<string, unknown> = {}) {
  return expectOk(h.request("POST", `${w.base}/contacts/${sourceId}/conversations`, { body }), "public conversation create");
}

async function publicMessage(w: World, sourceId: string, conversationId: number, content: string) {
  return expectOk(h.request("POST", `${w.base}/contacts/${sourceId}/conversations/${conversationId}/messages`, { body: { content } }), "public message create");
}

test("contact → conversation → message: Chatwoot's public shapes, and the webhooks fire as for the account API", async (t) => {
  const w = await world();
  const receiver = await new Receiver().start();
  t.teardown(() => receiver.stop());
  await expectOk(
    h.request("POST", `/api/v1/accounts/${w.account.id}/webhooks`, {
      token: w.account.admin.token,
      body: { url: receiver.url, subscriptions: ["contact_created", "conversation_created", "message_created"] },
    }),
    "subscribe",
  );
  await defineAttribute(h, w.account, "contact_attribute", "plan");
  await defineAttribute(h, w.account, "conversation_attribute", "order");

  const contact = await publicContact(w, { email: "ann@example.com", phone_number: "+14155550100", custom_attributes: { plan: "pro" } });
  t.deepEqual(Object.keys(contact).sort(), ["email", "id", "name", "phone_number", "pubsub_token", "source_id"]);
  t.like(contact, { name: "Ann", email: "ann@example.com", phone_number: "+14155550100" });
  t.regex(contact.source_id, /^[0-9a-f-]{36}$/);
  t.is(typeof contact.pubsub_token, "string");

  const conversation = await publicConversation(w, contact.source_id, { custom_attributes: { order: "A-1" } });
  t.deepEqual(Object.keys(conversation).sort(), ["agent_last_seen_at", "contact", "contact_last_seen_at", "id", "inbox_id", "messages", "status", "uuid"]);
  t.like(conversation, { inbox_id: w.inbox.id, status: "open", messages: [], contact_last_seen_at: 0, agent_last_seen_at: 0 });
  t.like(conversation.contact, {
    id: contact.id,
    name: "Ann",
    email: "ann@example.com",
    phone_number: "+14155550100",
    account_id: w.account.id,
    custom_attributes: { plan: "pro" },
  });
  const row = await h.knex("conversations").where({ account_id: w.account.id, display_id: conversation.id }).first();
  t.deepEqual(row.custom_attributes, { order: "A-1" });

  const message = await publicMessage(w, contact.source_id, conversation.id, "Hello there");
  t.deepEqual(message, {
    id: message.id,
    content: "Hello there",
    message_type: 0,
    content_type: "text",
    content_attributes: {},
    created_at: message.created_at,
    conversation_id: conversation.id,
    sender: message.sender,
  });
  t.like(message.sender, { id: contact.id, name: "Ann", type: "contact" });

  const requests = await receiver.waitFor((r) =>
    ["contact_created", "conversation_created", "message_created"].every((e) => r.some((x) => x.body.event === e)),
  );
  const byEvent = (event: string) => requests.find((r) => r.body.event === event)!.body;
  t.like(byEvent("contact_created"), { id: contact.id, name: "Ann", email: "ann@example.com" });
  t.like(byEvent("conversation_created"), { id: conversation.id, inbox_id: w.inbox.id, status: "open" });
  t.like(byEvent("message_created"), {
    id: message.id,
    content: "Hello there",
    message_type: "incoming",
    sender: { id: contact.id, name: "Ann" },
    conversation: { id: conversation.id },
  });

  // The account API sees the same conversation, waiting for a reply.
  const seen = await expectOk(accountApi(h, w.account).get(`/conversations/${conversation.id}`), "show");
  t.is(seen.messages[0].content, "Hello there");
  t.true(seen.waiting_since > 0);
});

test("an unknown inbox identifier, source_id or conversation is a 404; a web widget's token is not an API inbox", async (t) => {
  const w = await world();
  const contact = await publicContact(w);
  const conversation = await publicConversation(w, contact.source_id);
  const notFound = { error: "Resource could not be found" };
  for (const [method, path] of [
    ["POST", "/public/api/v1/inboxes/nope/contacts"],
    ["GET", `/public/api/v1/inboxes/nope/contacts/${contact.source_id}`],
    ["GET", `/public/api/v1/inboxes/nope/contacts/${contact.source_id}/conversations`],
    ["POST", `/public/api/v1/inboxes/nope/contacts/${contact.source_id}/conversations/${conversation.id}/messages`],
    ["GET", `${w.base}/contacts/unknown-source`],
    ["PATCH", `${w.base}/contacts/unknown-source`],
    ["GET", `${w.base}/contacts/unknown-source/conversations`],
    ["GET", `${w.base}/contacts/${contact.source_id}/conversations/999999`],
    ["GET", `${w.base}/contacts/${contact.source_id}/conversations/abc`],
    ["POST", `${w.base}/contacts/${contact.source_id}/conversations/999999/toggle_status`],
    ["GET", `${w.base}/contacts/${contact.source_id}/conversations/999999/messages`],
    ["PATCH", `${w.base}/contacts/${contact.source_id}/conversations/${conversation.id}/messages/999999`],
  ] as const) {
    const response = await h.request(method, path, { body: method === "GET" ? undefined : { content: "x" } });
    t.is(response.status, 404, `${method} ${path}`);
    t.deepEqual(response.body, notFound, `${method} ${path}`);
  }

  const widget = await expectOk(
    h.request("POST", `/api/v1/accounts/${w.account.id}/inboxes`, {
      token: w.account.admin.token,
      body: { name: "Site", channel: { type: "web_widget", website_url: "https://example.com" } },
    }),
    "widget inbox",
  );
  t.is((await h.request("POST", `/public/api/v1/inboxes/${widget.website_token}/contacts`, { body: {} })).status, 404);

  // Another contact inbox of the same inbox cannot reach this conversation.
  const other = await publicContact(w, { name: "Bob" });
  t.is((await h.request("GET", `${w.base}/contacts/${other.source_id}/conversations/${conversation.id}`)).status, 404);
  t.is((await h.request("POST", `${w.base}/contacts/${other.source_id}/conversations/${conversation.id}/messages`, { body: { content: "hi" } })).status, 404);
});

test("bad bodies answer 422 in Chatwoot's shapes", async (t) => {
  const w = await world();
  const invalid = await h.request("POST", `${w.base}/contacts`, { body: { email: 42 } });
  t.is(invalid.status, 422);
  t.deepEqual(invalid.body.attributes, ["email"]);
  const badEmail = await h.request("POST", `${w.base}/contacts`, { body: { email: "not-an-email" } });
  t.is(badEmail.status, 422);
  t.like(badEmail.body, { attributes: ["email"] });

  const contact = await publicContact(w);
  const conversation = await publicConversation(w, contact.source_id);
  const blank = await h.request("POST", `${w.base}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`, { body: { content: " " } });
  t.is(blank.status, 422);
  t.deepEqual(blank.body, { error: "Validation failed: Content can't be blank" });
});

test("create finds the contact by source_id, identifier, email or phone before making one, also under 50 parallel requests", async (t) => {
  const w = await world();
  const first = await publicContact(w, { source_id: "wa-1", email: "Ann@Example.com" });
  const again = await publicContact(w, { source_id: "wa-1", name: "Ignored" });
  t.deepEqual(again, first);

  const byEmail = await publicContact(w, { source_id: "wa-2", email: "ann@example.com" });
  t.is(byEmail.id, first.id);
  t.is(byEmail.source_id, "wa-2");

  const phone = "+14155550199";
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      h.request("POST", `${w.base}/contacts`, { body: { name: `P${i}`, phone_number: phone, source_id: i % 2 ? "shared" : undefined } }),
    ),
  );
  t.deepEqual([...new Set(responses.map((r) => r.status))], [200]);
  t.is(new Set(responses.map((r) => r.body.id)).size, 1, "one contact for the phone number");
  const [{ count }] = await h.knex("contacts").where({ account_id: w.account.id, phone_number: phone }).count();
  t.is(Number(count), 1);
  const [{ shared }] = await h.knex("contact_inboxes").where({ inbox_id: w.inbox.id, source_id: "shared" }).count({ shared: "*" });
  t.is(Number(shared), 1);
});

test("update merges custom attributes, leaves the identifier alone, answers the contact record and emits contact_updated", async (t) => {
  const w = await world();
  await defineAttribute(h, w.account, "contact_attribute", "a", "number");
  await defineAttribute(h, w.account, "contact_attribute", "b", "number");
  const contact = await publicContact(w, { custom_attributes: { a: 1 } });
  const response = await h.request("PATCH", `${w.base}/contacts/${contact.source_id}`, {
    body: { name: "Ann Lee", identifier: "crm-9", custom_attributes: { b: 2 } },
  });
  t.is(response.status, 200);
  t.like(response.body, {
    id: contact.id,
    name: "Ann Lee",
    identifier: null,
    custom_attributes: { a: 1, b: 2 },
    account_id: w.account.id,
    contact_type: "visitor",
  });
  t.regex(response.body.created_at, /^\d{4}-\d\d-\d\dT/);
  const shown = await expectOk(h.request("GET", `${w.base}/contacts/${contact.source_id}`), "show");
  t.deepEqual(shown, { ...contact, name: "Ann Lee" });
  const events = await h.knex("events").where({ account_id: w.account.id, name: "contact_updated" });
  t.is(events.length, 1);
  t.like(events[0].payload, { id: contact.id, name: "Ann Lee" });
});

test("hmac: a mandatory inbox refuses requests without a valid identifier_hash; a valid one verifies the contact inbox", async (t) => {
  const w = await world({ hmac_mandatory: true });
  const failed = { error: "HMAC failed: Invalid Identifier Hash Provided" };
  const unsigned = await h.request("POST", `${w.base}/contacts`, { body: { name: "Ann", identifier: "u-1" } });
  t.is(unsigned.status, 401);
  t.deepEqual(unsigned.body, failed);
  const forged = await h.request("POST", `${w.base}/contacts`, { body: { name: "Ann", identifier: "u-1", identifier_hash: hashOf(w, "u-2") } });
  t.is(forged.status, 401);
  t.is((await h.knex("contacts").where({ account_id: w.account.id })).length, 0, "nothing is created");

  const contact = await publicContact(w, { identifier: "u-1", identifier_hash: hashOf(w, "u-1") });
  const row = () => h.knex("contact_inboxes").where({ inbox_id: w.inbox.id, source_id: contact.source_id }).first();
  t.false((await row()).hmac_verified, "create does not verify, as in Chatwoot");

  t.is((await h.request("GET", `${w.base}/contacts/${contact.source_id}`)).status, 401);
  const mismatch = await h.request("GET", `${w.base}/contacts/${contact.source_id}?identifier=u-2&identifier_hash=${hashOf(w, "u-2")}`);
  t.is(mismatch.status, 401);
  t.deepEqual(mismatch.body, { error: "HMAC failed: Identifier does not match contact" });
  const shown = await h.request("GET", `${w.base}/contacts/${contact.source_id}?identifier=u-1&identifier_hash=${hashOf(w, "u-1")}`);
  t.is(shown.status, 200);
  t.true((await row()).hmac_verified);
});

test("hmac: optional on a normal inbox, but a wrong hash still fails; a verified contact inbox reaches all of the contact's conversations", async (t) => {
  const w = await world();
  t.is((await h.request("POST", `${w.base}/contacts`, { body: { identifier: "u-7", identifier_hash: "00" } })).status, 401);
  const first = await publicContact(w, { identifier: "u-7", source_id: "s-1" });
  const second = await publicContact(w, { identifier: "u-7", source_id: "s-2" });
  t.is(second.id, first.id, "the identifier finds the contact");
  const a = await publicConversation(w, "s-1");
  const b = await publicConversation(w, "s-2");

  const listOf = async (sourceId: string) =>
    (await expectOk(h.request("GET", `${w.base}/contacts/${sourceId}/conversations`), "list")).map((c: { id: number }) => c.id);
  t.deepEqual(await listOf("s-1"), [a.id]);
  t.is((await h.request("GET", `${w.base}/contacts/s-1/conversations/${b.id}`)).status, 404);

  await expectOk(h.request("PATCH", `${w.base}/contacts/s-1`, { body: { identifier: "u-7", identifier_hash: hashOf(w, "u-7") } }), "verify");
  t.deepEqual(await listOf("s-1"), [a.id, b.id]);
  t.is((await h.request("GET", `${w.base}/contacts/s-1/conversations/${b.id}`)).status, 200);
  t.deepEqual(await listOf("s-2"), [b.id], "the other contact inbox is not verified");
});

test("toggle_status resolves once with the contact's activity and events; typing and last seen answer an empty 200", async (t) => {
  const w = await world();
  const contact = await publicContact(w, { name: "Ann" });
  const conversation = await publicConversation(w, contact.source_id);
  const base = `${w.base}/contacts/${contact.source_id}/conversations/${conversation.id}`;

  // 50 at once: one resolution, one activity, one set of events.
  const all = await Promise.all(Array.from({ length: 50 }, () => h.request("POST", `${base}/toggle_status`)));
  t.deepEqual([...new Set(all.map((r) => r.status))], [200]);
  const resolved = all[0]!;
  t.like(resolved.body, { id: conversation.id, status: "resolved" });
  t.true(all.every((r) => r.body.status === "resolved"));
  const again = await h.request("POST", `${base}/toggle_status`);
  t.like(again.body, { status: "resolved" });

  const row = await h.knex("conversations").where({ account_id: w.account.id, display_id: conversation.id }).first();
  const activities = await h.knex("messages").where({ conversation_id: row.id, message_type: 2 }).pluck("content");
  t.deepEqual(activities, ["Conversation was resolved by Ann"]);
  const events = await h.knex("events").where({ conversation_id: row.id }).orderBy("id").pluck("name");
  t.deepEqual(events, ["conversation_created", "conversation_status_changed", "conversation_updated"]);
  t.is(resolved.body.messages.length, 0, "activities are not shown to the contact");

  for (const status of ["on", "off", "recording", "whatever"]) {
    const typing = await h.request("POST", `${base}/toggle_typing`, { body: { typing_status: status } });
    t.is(typing.status, 200);
    t.is(typing.body, undefined);
  }

  // An agent's reply, then the contact reads it.
  const reply = await expectOk(
    h.request("POST", `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/messages`, {
      token: w.account.admin.token,
      body: { content: "We are on it" },
    }),
    "agent reply",
  );
  const note = await expectOk(
    h.request("POST", `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/messages`, {
      token: w.account.admin.token,
      body: { content: "internal", private: true },
    }),
    "private note",
  );
  t.is((await h.request("POST", `${base}/update_last_seen`)).status, 200);
  const after = await h.knex("conversations").where({ id: row.id }).first();
  t.true(after.contact_last_seen_at instanceof Date);
  t.is((await h.knex("messages").where({ id: reply.id }).first()).status, "read");

  const shown = await expectOk(h.request("GET", base), "show");
  t.true(shown.contact_last_seen_at > 0);
  t.deepEqual(
    shown.messages.map((m: { id: number }) => m.id),
    [reply.id],
    "no activities, no private notes",
  );
  t.false(shown.messages.some((m: { id: number }) => m.id === note.id));
});

test("messages: the list leaves out private notes and activities and pages with before; update stores submitted_values and emits message_updated", async (t) => {
  const w = await world();
  const contact = await publicContact(w);
  const conversation = await publicConversation(w, contact.source_id);
  const base = `${w.base}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`;
  const ids: number[] = [];
  for (let i = 0; i < 22; i++) ids.push((await publicMessage(w, contact.source_id, conversation.id, `m${i}`)).id);
  await expectOk(
    h.request("POST", `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/messages`, {
      token: w.account.admin.token,
      body: { content: "secret", private: true },
    }),
    "note",
  );
  const latest = await expectOk(h.request("GET", base), "list");
  t.is(latest.length, 20);
  t.deepEqual(
    latest.map((m: { id: number }) => m.id),
    ids.slice(2),
  );
  t.false(latest.some((m: { content: string }) => m.content === "secret"));
  const earlier = await expectOk(h.request("GET", `${base}?before=${ids[2]}`), "before");
  t.deepEqual(
    earlier.map((m: { id: number }) => m.id),
    ids.slice(0, 2),
  );

  const select = await expectOk(
    h.request("POST", `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/messages`, {
      token: w.account.admin.token,
      body: { content: "Pick one", content_type: "input_select", content_attributes: { items: [{ title: "Yes", value: "yes" }] } },
    }),
    "select",
  );
  const updated = await h.request("PATCH", `${base}/${select.id}`, { body: { submitted_values: [{ title: "Yes", value: "yes" }] } });
  t.is(updated.status, 200);
  t.deepEqual(updated.body.content_attributes, { items: [{ title: "Yes", value: "yes" }], submitted_values: [{ title: "Yes", value: "yes" }] });
  t.is(updated.body.message_type, 1);
  const events = await h.knex("events").where({ account_id: w.account.id, name: "message_updated" });
  t.is(events.length, 1);
  t.is(events[0].payload.id, select.id);
});

test("update with another contact's email or phone merges into that contact, as ContactIdentifyAction does", async (t) => {
  const w = await world();
  const { contact: known } = await expectOk(accountApi(h, w.account).post("/contacts", { name: "Known", email: "known@example.com" }), "known contact").then(
    (body) => body.payload,
  );
  const visitor = await publicContact(w, { name: "Visitor" });
  const merged = await h.request("PATCH", `${w.base}/contacts/${visitor.source_id}`, { body: { name: "Known Person", email: "KNOWN@example.com" } });
  t.is(merged.status, 200);
  t.like(merged.body, { id: known.id, name: "Known Person", email: "known@example.com" });
  t.is(await h.knex("contacts").where({ id: visitor.id }).first(), undefined, "the visitor was merged away");
  const shown = await expectOk(h.request("GET", `${w.base}/contacts/${visitor.source_id}`), "show");
  t.is(shown.id, known.id, "the source_id now names the known contact");

  // A phone owned by a contact with another email is not taken, and nothing is merged.
  const other = await publicContact(w, { name: "Other", email: "other@example.com", phone_number: "+14155550123" });
  const kept = await h.request("PATCH", `${w.base}/contacts/${visitor.source_id}`, { body: { email: "known@example.com", phone_number: "+14155550123" } });
  t.is(kept.status, 200);
  t.like(kept.body, { id: known.id, phone_number: null });
  t.truthy(await h.knex("contacts").where({ id: other.id }).first());
});

test("a contact's message may carry files as a multipart body: attachments in Chatwoot's shape, also in the list and the webhook payload", async (t) => {
  const w = await world();
  const contact = await publicContact(w);
  const conversation = await publicConversation(w, contact.source_id);
  const base = `${w.base}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`;
  const png = await pngOf(8, 6);
  const created = await requestForm(h, "POST", base, [["attachments[]", { filename: "photo.png", content: png, type: "image/png" }]]);
  t.is(created.status, 200);
  t.like(created.body, { content: null, message_type: 0, conversation_id: conversation.id, sender: { id: contact.id } });
  t.is(created.body.attachments.length, 1);
  t.like(created.body.attachments[0], { message_id: created.body.id, file_type: "image", extension: "png", file_size: png.length, account_id: w.account.id });
  const listed = await expectOk(h.request("GET", base), "list");
  // The image may have been measured off the request path meanwhile: width, height and thumb_url can differ.
  const unmeasured = ({ width: _w, height: _h, thumb_url: _t, ...rest }: Record<string, unknown>) => rest;
  t.deepEqual(listed[0].attachments.map(unmeasured), created.body.attachments.map(unmeasured));
  const event = await h.knex("events").where({ account_id: w.account.id, name: "message_created" }).first();
  t.is(event.payload.attachments.length, 1);

  const form = await requestForm(h, "POST", base, [["content", "plain form field"]]);
  t.is(form.status, 200);
  t.false("attachments" in form.body);
  t.is(form.body.content, "plain form field");
});
