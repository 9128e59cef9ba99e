import test from "ava";
import { conversationWorld, createConversation, postMessage } from "../conversations/setup";
import { createAccount } from "../support/factories";
import { leftoverUploads, ownTmpDir, requestForm } from "../support/forms";
import { useHarness } from "../support/harness";

const h = useHarness(test);
let tmp: string;
test.before(async () => {
  tmp = await ownTmpDir();
});

/** Two message bodies that differ only in what every message has of its own. */
const withoutIdentity = ({ id: _id, created_at: _c, updated_at: _u, conversation: _conv, ...rest }: Record<string, unknown>) => rest;

test("a message sent as a form answers as the same message sent as JSON; strings become booleans and bracket fields nest", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}/messages`;

  const json = await postMessage(h, world, conversation.id, {
    content: "Pick one",
    private: true,
    content_type: "input_select",
    content_attributes: {
      items: [
        { title: "Yes", value: "yes" },
        { title: "No", value: "no" },
      ],
    },
  });
  t.is(json.status, 200);
  const form = await requestForm(
    h,
    "POST",
    path,
    [
      ["content", "Pick one"],
      ["private", "true"],
      ["content_type", "input_select"],
      ["content_attributes[items][][title]", "Yes"],
      ["content_attributes[items][][value]", "yes"],
      ["content_attributes[items][][title]", "No"],
      ["content_attributes[items][][value]", "no"],
    ],
    world.account.admin.token,
  );
  t.is(form.status, 200);
  t.true(form.body.private);
  t.deepEqual(withoutIdentity(form.body), withoutIdentity(json.body));

  // The way the Chatwoot SDK sends it: every non-string value JSON-encoded.
  const sdkStyle = await requestForm(
    h,
    "POST",
    path,
    [
      ["content", "Note"],
      ["private", "false"],
      ["message_type", "outgoing"],
      ["content_attributes", JSON.stringify({ in_reply_to: json.body.id })],
    ],
    world.account.admin.token,
  );
  t.is(sdkStyle.status, 200);
  t.false(sdkStyle.body.private);
  t.deepEqual(sdkStyle.body.content_attributes, { in_reply_to: json.body.id });
  const row = await h.knex("messages").where("id", sdkStyle.body.id).first();
  t.false(row.private);
});

test("a form message is validated as a JSON one, with the same 422s", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}/messages`;
  for (const [fields, json] of [
    [[["content", " "]], { content: " " }],
    [
      [
        ["content", "Hi"],
        ["message_type", "bogus"],
      ],
      { content: "Hi", message_type: "bogus" },
    ],
    [
      [
        ["content", "Pick"],
        ["content_type", "input_select"],
      ],
      { content: "Pick", content_type: "input_select" },
    ],
  ] as const) {
    const asForm = await requestForm(h, "POST", path, fields as never, world.account.admin.token);
    const asJson = await postMessage(h, world, conversation.id, json);
    t.is(asForm.status, 422);
    t.deepEqual(asForm.body, asJson.body);
  }
  t.is(
    await h
      .knex("messages")
      .where({ conversation_id: (await h.knex("conversations").where({ account_id: world.account.id }).first()).id })
      .count("* as n")
      .first()
      .then((r) => Number(r!.n)),
    0,
  );
});

test("a message's status is updated from a form, as from JSON", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const message = (await postMessage(h, world, conversation.id, { content: "Hello" })).body;
  const path = `${world.base}/conversations/${conversation.id}/messages/${message.id}`;
  const failed = await requestForm(
    h,
    "PATCH",
    path,
    [
      ["status", "failed"],
      ["external_error", "Number unreachable"],
    ],
    world.account.admin.token,
  );
  t.is(failed.status, 200);
  t.is(failed.body.status, "failed");
  t.is(failed.body.content_attributes.external_error, "Number unreachable");
  const read = await requestForm(h, "PATCH", path, [["status", "read"]], world.account.admin.token);
  t.is(read.body.status, "read");
  t.like(await h.knex("messages").where("id", message.id).first(), { status: "read" });
});

test("contacts are created and updated from forms: blocked is cast, inbox_id is read as a number, attributes nest", async (t) => {
  const world = await conversationWorld(h);
  const created = await requestForm(
    h,
    "POST",
    `${world.base}/contacts`,
    [
      ["name", "Form Person"],
      ["email", `form-${world.account.id}@example.com`],
      ["blocked", "false"],
      ["inbox_id", String(world.inbox.id)],
      ["additional_attributes[city]", "Paris"],
      ["additional_attributes[company_name]", "Acme"],
    ],
    world.account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  const contact = created.body.payload.contact;
  t.like(contact, { name: "Form Person", blocked: false, additional_attributes: { city: "Paris", company_name: "Acme" } });
  t.is(created.body.payload.contact_inbox.inbox.id, world.inbox.id);

  // Rails' params wrapper: the fields may come under contact[...].
  const updated = await requestForm(
    h,
    "PUT",
    `${world.base}/contacts/${contact.id}`,
    [
      ["contact[blocked]", "true"],
      ["contact[additional_attributes][city]", "Lyon"],
    ],
    world.account.admin.token,
  );
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body.payload, { blocked: true, additional_attributes: { city: "Lyon", company_name: "Acme" } });
  t.like(await h.knex("contacts").where("id", contact.id).first(), { blocked: true });

  const invalid = await requestForm(h, "PATCH", `${world.base}/contacts/${contact.id}`, [["email", "not an email"]], world.account.admin.token);
  const invalidJson = await h.request("PATCH", `${world.base}/contacts/${contact.id}`, { token: world.account.admin.token, body: { email: "not an email" } });
  t.is(invalid.status, invalidJson.status);
  t.deepEqual(invalid.body, invalidJson.body);
});

test("agent bots are created and updated from forms, in the account API and the platform API", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}/agent_bots`;
  const created = await requestForm(
    h,
    "POST",
    base,
    [
      ["name", "Form bot"],
      ["outgoing_url", "https://bots.example.com/in"],
      ["bot_type", "0"],
      ["bot_config[tone]", "kind"],
    ],
    account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, {
    name: "Form bot",
    outgoing_url: "https://bots.example.com/in",
    bot_type: "webhook",
    bot_config: { tone: "kind" },
    account_id: account.id,
  });
  const updated = await requestForm(h, "PATCH", `${base}/${created.body.id}`, [["description", "Answers"]], account.admin.token);
  t.like(updated.body, { id: created.body.id, description: "Answers", name: "Form bot" });

  const platform = await requestForm(
    h,
    "POST",
    "/platform/api/v1/agent_bots",
    [
      ["name", "Platform bot"],
      ["account_id", String(account.id)],
    ],
    h.platformToken,
  );
  t.is(platform.status, 200, JSON.stringify(platform.body));
  t.like(platform.body, { name: "Platform bot", account_id: account.id, system_bot: false });
  const renamed = await requestForm(h, "PATCH", `/platform/api/v1/agent_bots/${platform.body.id}`, [["name", "Renamed"]], h.platformToken);
  t.like(renamed.body, { id: platform.body.id, name: "Renamed" });
});

test("inboxes are created and updated from forms, booleans cast", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}/inboxes`;
  const created = await requestForm(
    h,
    "POST",
    base,
    [
      ["name", "Form inbox"],
      ["channel[type]", "api"],
      ["channel[webhook_url]", "https://hooks.example.com/x"],
      ["greeting_enabled", "true"],
      ["greeting_message", "Hi!"],
    ],
    account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, {
    name: "Form inbox",
    channel_type: "Channel::Api",
    greeting_enabled: true,
    greeting_message: "Hi!",
    webhook_url: "https://hooks.example.com/x",
  });
  const updated = await requestForm(
    h,
    "PATCH",
    `${base}/${created.body.id}`,
    [
      ["greeting_enabled", "false"],
      ["enable_auto_assignment", "0"],
    ],
    account.admin.token,
  );
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body, { greeting_enabled: false, enable_auto_assignment: false });
});

test("urlencoded forms are cast the same way", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const response = await h.request("POST", `${world.base}/conversations/${conversation.id}/messages`, {
    token: world.account.admin.token,
    rawBody: new URLSearchParams({ content: "Quiet note", private: "true" }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.true(response.body.private);
});

test.serial("forms beyond the field and file limits are refused with 413, and no upload is left on disk", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}/messages`;
  const manyFields = Array.from({ length: 250 }, (_, i) => [`content_attributes[k${i}]`, "v"] as [string, string]);
  const fields = await requestForm(h, "POST", path, [["content", "x"], ...manyFields], world.account.admin.token);
  t.is(fields.status, 413);
  t.regex(fields.body.error, /Too many fields/);
  const manyFiles = Array.from(
    { length: 11 },
    (_, i) =>
      ["attachments[]", { filename: `f${i}.txt`, content: "hello", type: "text/plain" }] as [string, { filename: string; content: string; type: string }],
  );
  const files = await requestForm(h, "POST", path, [["content", "x"], ...manyFiles], world.account.admin.token);
  t.is(files.status, 413);
  t.regex(files.body.error, /Too many files/);
  const malformed = await h.request("POST", path, {
    token: world.account.admin.token,
    rawBody: "--nope\r\nnot a part",
    headers: { "content-type": "multipart/form-data; boundary=nope" },
  });
  t.is(malformed.status, 400);
  t.deepEqual(await leftoverUploads(tmp), []);
  t.is(
    await h
      .knex("messages")
      .where("conversation_id", (await h.knex("conversations").where({ account_id: world.account.id }).first()).id)
      .count("* as n")
      .first()
      .then((r) => Number(r!.n)),
    0,
  );
});
