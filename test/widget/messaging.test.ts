import test from "ava";
import { setInboxMembers } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { requestForm } from "../support/forms";
import { accountApi, expectOk, tempStorage, useHarness } from "../support/harness";
import { newVisitor, widgetInbox } from "./widgetSession";

const h = useHarness(test, { settings: { storage: tempStorage() } });

test("the visitor's first message opens a conversation the agents see; later ones join it; the agent's reply is listed to the visitor", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const visitor = await newVisitor(h, inbox.website_token);
  t.deepEqual((await visitor.call("GET", "/conversations")).body, {});
  t.deepEqual((await visitor.call("GET", "/messages")).body, []);

  const first = await visitor.call("POST", "/messages", {
    message: { content: "Do you ship to Oslo?", echo_id: "tmp-1", referer_url: "https://shop.example/cart" },
  });
  t.is(first.status, 200);
  t.like(first.body, {
    content: "Do you ship to Oslo?",
    message_type: 0,
    inbox_id: inbox.id,
    echo_id: "tmp-1",
    sender: { id: visitor.contactId, type: "contact" },
  });
  const conversation = (await visitor.call("GET", "/conversations")).body;
  t.like(conversation, { id: first.body.conversation_id, inbox_id: inbox.id, status: "open" });
  await expectOk(visitor.call("POST", "/messages", { message: { content: "And to Bergen?" } }), "second message");

  const api = accountApi(h, account);
  const listed = await expectOk(api.get(`/conversations/${conversation.id}/messages`), "agent list");
  t.deepEqual(
    listed.payload.map((m: { content: string }) => m.content),
    ["Do you ship to Oslo?", "And to Bergen?"],
  );
  const shown = await expectOk(api.get(`/conversations/${conversation.id}`), "agent show");
  t.like(shown.meta.sender, { id: visitor.contactId });
  t.is(shown.additional_attributes.referer, "https://shop.example/cart");

  await expectOk(api.post(`/conversations/${conversation.id}/messages`, { content: "Yes, both." }), "reply");
  await expectOk(api.post(`/conversations/${conversation.id}/messages`, { content: "internal", private: true }), "note");
  const seen = (await visitor.call("GET", "/messages")).body;
  t.deepEqual(
    seen.map((m: { content: string; message_type: number }) => [m.content, m.message_type]),
    [
      ["Do you ship to Oslo?", 0],
      ["And to Bergen?", 0],
      ["Yes, both.", 1],
    ],
  );
  t.is((await visitor.call("POST", "/conversations/update_last_seen")).status, 200);
  t.true((await visitor.call("GET", "/conversations")).body.contact_last_seen_at > 0);
});

test("50 first messages sent at once by a new visitor land in one conversation", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const visitor = await newVisitor(h, inbox.website_token);
  const sent = await Promise.all(Array.from({ length: 50 }, (_, i) => visitor.call("POST", "/messages", { message: { content: `hello ${i}` } })));
  t.deepEqual([...new Set(sent.map((response) => response.status))], [200]);
  t.is(new Set(sent.map((response) => response.body.conversation_id)).size, 1);
  t.deepEqual(await h.knex("conversations").where({ account_id: account.id }).count("*", { as: "n" }), [{ n: 1 }]);
  t.deepEqual(await h.knex("messages").where({ account_id: account.id, message_type: 0 }).count("*", { as: "n" }), [{ n: 50 }]);
});

test("messages are validated as the public API's: blank or too long is 422, files come as message[attachments][]", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const visitor = await newVisitor(h, inbox.website_token);
  t.is((await visitor.call("POST", "/messages", { message: { content: "  " } })).status, 422);
  t.is((await visitor.call("POST", "/messages", { message: { content: "x".repeat(150_001) } })).status, 422);
  t.is((await visitor.call("GET", "/conversations")).body.id, undefined, "a refused first message opens nothing");

  const withFile = await requestForm(
    h,
    "POST",
    `/api/v1/widget/messages?website_token=${inbox.website_token}`,
    [
      ["message[content]", "my receipt"],
      ["message[attachments][]", { filename: "receipt.txt", content: "paid", type: "text/plain" }],
    ],
    undefined,
    { "X-Auth-Token": visitor.authToken },
  );
  t.is(withFile.status, 200);
  t.like(withFile.body, { content: "my receipt" });
  t.like(withFile.body.attachments[0], { file_type: "file", extension: "txt" });
  t.is((await visitor.call("GET", "/messages")).body[0].attachments.length, 1);
});

test("a visitor without a valid token, or of another widget, reaches nothing", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const other = await widgetInbox(h, account);
  const visitor = await newVisitor(h, inbox.website_token);
  await expectOk(visitor.call("POST", "/messages", { message: { content: "mine" } }), "message");
  const path = `/api/v1/widget/messages?website_token=${inbox.website_token}`;
  t.is((await h.request("GET", path)).status, 404);
  t.is((await h.request("GET", path, { headers: { "X-Auth-Token": "forged" } })).status, 404);
  t.is(
    (await h.request("GET", `/api/v1/widget/messages?website_token=${other.website_token}`, { headers: { "X-Auth-Token": visitor.authToken } })).status,
    404,
  );
  const stranger = await newVisitor(h, inbox.website_token);
  t.deepEqual((await stranger.call("GET", "/messages")).body, []);
});

test("POST /conversations starts a new conversation with the pre-chat details; typing, ending and labels act on it", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await widgetInbox(h, account, { selected_feature_flags: ["attachments", "end_conversation"] });
  await expectOk(api.post("/labels", { title: "vip" }), "label");
  const visitor = await newVisitor(h, inbox.website_token);
  t.is((await visitor.call("POST", "/conversations/toggle_typing", { typing_status: "on" })).status, 404, "no conversation yet");

  const created = await visitor.call("POST", "/conversations", {
    contact: { name: "Ola Nordmann", email: "OLA@example.com" },
    message: { content: "Hi, I need help" },
    custom_attributes: {},
  });
  t.is(created.status, 200);
  t.like(created.body, { status: "open", contact: { id: visitor.contactId, name: "Ola Nordmann", email: "ola@example.com" } });
  t.deepEqual(
    created.body.messages.map((m: { content: string }) => m.content),
    ["Hi, I need help"],
  );
  t.is((await visitor.call("POST", "/conversations/toggle_typing", { typing_status: "on" })).status, 200);

  t.is((await visitor.call("POST", "/labels", { label: "VIP" })).status, 204);
  t.is((await visitor.call("POST", "/labels", { label: "unknown" })).status, 204);
  t.deepEqual((await expectOk(api.get(`/conversations/${created.body.id}`), "show")).labels, ["vip"]);
  await Promise.all(Array.from({ length: 50 }, () => visitor.call("POST", "/labels", { label: "vip" })));
  t.deepEqual((await expectOk(api.get(`/conversations/${created.body.id}`), "show")).labels, ["vip"]);
  t.is((await visitor.call("DELETE", "/labels/vip")).status, 204);
  t.deepEqual((await expectOk(api.get(`/conversations/${created.body.id}`), "show")).labels, []);

  t.is((await visitor.call("GET", "/conversations/toggle_status")).status, 200);
  t.is((await visitor.call("GET", "/conversations")).body.status, "resolved");

  const plain = await widgetInbox(h, account, { selected_feature_flags: ["attachments"] });
  const other = await newVisitor(h, plain.website_token);
  await expectOk(other.call("POST", "/messages", { message: { content: "hello" } }), "message");
  t.is((await other.call("POST", "/conversations/toggle_status")).status, 403, "end_conversation is off for this widget");
});

test("contact: PATCH updates the visitor; set_user checks the identifier hash and verifies; another person gets a new visitor", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account, { hmac_mandatory: true });
  const hmacToken = (await h.knex("channel_web_widgets").where({ website_token: inbox.website_token }).first("hmac_token")).hmac_token;
  const { createHmac } = await import("node:crypto");
  const hashOf = (identifier: string) => createHmac("sha256", hmacToken).update(identifier).digest("hex");
  const visitor = await newVisitor(h, inbox.website_token);

  const patched = await visitor.call("PATCH", "/contact", { name: "Kari", custom_attributes: { plan: "gold" }, identifier: "ignored" });
  t.is(patched.status, 200);
  t.like(patched.body, { id: visitor.contactId, name: "Kari" });
  t.like((await visitor.call("GET", "/contact")).body, { id: visitor.contactId, has_name: true, has_email: false, identifier: null });

  const refused = await visitor.call("PATCH", "/contact/set_user", { identifier: "user-1", identifier_hash: hashOf("user-2"), email: "kari@example.com" });
  t.is(refused.status, 401);
  t.deepEqual(refused.body, { error: "HMAC failed: Invalid Identifier Hash Provided" });
  t.is((await visitor.call("PATCH", "/contact/set_user", { identifier: "user-1", email: "kari@example.com" })).status, 401, "hmac_mandatory");

  const set = await visitor.call("PATCH", "/contact/set_user", { identifier: "user-1", identifier_hash: hashOf("user-1"), email: "kari@example.com" });
  t.is(set.status, 200);
  t.like(set.body, { id: visitor.contactId, email: "kari@example.com", pubsub_token: visitor.pubsubToken });
  t.is(set.body.widget_auth_token, undefined);
  const contactInbox = await h.knex("contact_inboxes").where({ contact_id: visitor.contactId, inbox_id: inbox.id }).first();
  t.true(contactInbox.hmac_verified);
  t.like(await h.knex("contacts").where({ id: visitor.contactId }).first(), { identifier: "user-1", custom_attributes: { plan: "gold" } });

  const someoneElse = await visitor.call("PATCH", "/contact/set_user", { identifier: "user-2", identifier_hash: hashOf("user-2"), name: "Per" });
  t.is(someoneElse.status, 200);
  t.not(someoneElse.body.id, visitor.contactId);
  t.is(typeof someoneElse.body.widget_auth_token, "string");
  t.like(await h.knex("contacts").where({ id: visitor.contactId }).first(), { identifier: "user-1", name: "Kari" }, "the first person is untouched");
});

test("forms and choices: the visitor's answer is kept on the agent's message; another visitor's message is not theirs to answer", async (t) => {
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await widgetInbox(h, account);
  const visitor = await newVisitor(h, inbox.website_token);
  const first = await expectOk(visitor.call("POST", "/messages", { message: { content: "book me in" } }), "message");
  const choice = await expectOk(
    api.post(`/conversations/${first.conversation_id}/messages`, {
      content: "Which day?",
      content_type: "input_select",
      content_attributes: { items: [{ title: "Monday", value: "mon" }] },
    }),
    "choice",
  );
  const answered = await visitor.call("PATCH", `/messages/${choice.id}`, { message: { submitted_values: [{ title: "Monday", value: "mon" }] } });
  t.is(answered.status, 200);
  t.deepEqual(answered.body.content_attributes.submitted_values, [{ title: "Monday", value: "mon" }]);
  const stranger = await newVisitor(h, inbox.website_token);
  t.is((await stranger.call("PATCH", `/messages/${choice.id}`, { message: { submitted_values: [{ value: "tue" }] } })).status, 404);
});

test("inbox_members lists the inbox's agents with their live availability, no token needed", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const listed = await h.request("GET", `/api/v1/widget/inbox_members?website_token=${inbox.website_token}`);
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.payload.map((m: { id: number; availability_status: string }) => [m.id, m.availability_status]),
    [[account.agent.id, "offline"]],
  );
  t.deepEqual(Object.keys(listed.body.payload[0]).sort(), ["availability_status", "avatar_url", "id", "name"]);
});
