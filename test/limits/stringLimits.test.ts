import test from "ava";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { useHarness } from "../support/harness";

/**
 * Every string the API stores has a length limit (src/http/limits.ts, docs/limits.md); a longer value
 * is a 422 naming the field, never a 500 from an index row too large, nor a stored value that later
 * outgrows what Temporal or a webhook can carry.
 */
const h = useHarness(test);
let doc: any;
test.before(async () => {
  doc = (await h.request("GET", "/api-docs/openapi.json")).body;
});

const MB = "x".repeat(1_000_000);
const tooLong = (message: string, attribute: string) => ({ message, attributes: [attribute] });

test("every string a request body carries declares its maximum length in the OpenAPI document", (t) => {
  const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]) : schema);
  const unlimited = new Set<string>();
  const walk = (input: any, path: string, seen: Set<unknown>) => {
    const schema = resolve(input);
    if (!schema || seen.has(schema)) return;
    const inside = new Set(seen).add(schema);
    const types: string[] = [].concat(schema.type ?? []);
    // Enums are bounded by their values; files (format binary) by the upload limits.
    if (types.includes("string") && !schema.enum && schema.const === undefined && schema.format !== "binary" && schema.maxLength === undefined)
      unlimited.add(path);
    for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, `${path}.${key}`, inside);
    if (schema.items) walk(schema.items, `${path}[]`, inside);
    if (typeof schema.additionalProperties === "object") walk(schema.additionalProperties, `${path}{}`, inside);
    for (const key of ["anyOf", "oneOf", "allOf"]) for (const variant of schema[key] ?? []) walk(variant, path, inside);
  };
  for (const [path, operations] of Object.entries<any>(doc.paths))
    for (const [method, operation] of Object.entries<any>(operations)) {
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      if (body) walk(body, `${method.toUpperCase()} ${path} body`, new Set());
    }
  t.deepEqual([...unlimited], []);
});

test("a team name of 1 MB is a 422 naming the field on POST, PATCH and PUT, not a 500 from the unique index", async (t) => {
  const account = await createAccount(h);
  const teams = `/api/v1/accounts/${account.id}/teams`;
  const expected = tooLong("Name is too long (maximum is 255 characters)", "name");
  const created = await h.request("POST", teams, { token: account.admin.token, body: { name: MB } });
  t.is(created.status, 422);
  t.deepEqual(created.body, expected);
  const team = (await h.request("POST", teams, { token: account.admin.token, body: { name: "billing" } })).body;
  for (const method of ["PATCH", "PUT"] as const) {
    const updated = await h.request(method, `${teams}/${team.id}`, { token: account.admin.token, body: { team: { name: MB } } });
    t.is(updated.status, 422, method);
    t.deepEqual(updated.body, expected, method);
  }
  const longest = await h.request("POST", teams, { token: account.admin.token, body: { name: "n".repeat(255) } });
  t.is(longest.status, 200, "255 characters are a name");
  t.deepEqual(
    (await h.knex("teams").where("account_id", account.id).orderBy("id").select("name")).map((row) => row.name),
    ["billing", "n".repeat(255)],
  );
});

test("an automation rule named with 900,000 characters is refused, and nothing is stored", async (t) => {
  const account = await createAccount(h);
  const rule = {
    name: "n".repeat(900_000),
    event_name: "conversation_created",
    actions: [{ action_name: "add_label", action_params: ["x"] }],
    conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
  };
  const response = await h.request("POST", `/api/v1/accounts/${account.id}/automation_rules`, { token: account.admin.token, body: rule });
  t.is(response.status, 422);
  t.regex(JSON.stringify(response.body), /Name is too long \(maximum is 255 characters\)/);
  t.is(Number((await h.knex("automation_rules").where("account_id", account.id).count("* as n").first())!.n), 0);
});

async function conversationOf(account: TestAccount) {
  const inbox = await createInbox(h, account, { name: "Support" });
  const { contact } = await createContact(h, account, { name: "Jane", inbox_id: inbox.id });
  const created = await h.request("POST", `/api/v1/accounts/${account.id}/conversations`, {
    token: account.admin.token,
    body: { inbox_id: inbox.id, contact_id: contact.id },
  });
  if (created.status !== 200) throw new Error(`create conversation: ${created.status}`);
  return created.body;
}

test("message content is limited at Chatwoot's 150,000 characters on the account and public APIs", async (t) => {
  const account = await createAccount(h);
  const conversation = await conversationOf(account);
  const messages = `/api/v1/accounts/${account.id}/conversations/${conversation.id}/messages`;
  const over = await h.request("POST", messages, { token: account.admin.token, body: { content: "c".repeat(150_001) } });
  t.is(over.status, 422);
  t.deepEqual(over.body, tooLong("Content is too long (maximum is 150000 characters)", "content"));
  const longest = await h.request("POST", messages, { token: account.admin.token, body: { content: "c".repeat(150_000) } });
  t.is(longest.status, 200);

  const api = await createInbox(h, account, { name: "API", channel: { type: "api" } });
  const contact = await h.request("POST", `/public/api/v1/inboxes/${api.inbox_identifier}/contacts`, { body: { name: "Visitor" } });
  const base = `/public/api/v1/inboxes/${api.inbox_identifier}/contacts/${contact.body.source_id}/conversations`;
  const publicConversation = await h.request("POST", base, { body: {} });
  const publicOver = await h.request("POST", `${base}/${publicConversation.body.id}/messages`, { body: { content: MB } });
  t.is(publicOver.status, 422);
  t.deepEqual(publicOver.body, tooLong("Content is too long (maximum is 150000 characters)", "content"));
});

test("the platform API and the scheduling routes refuse over-long strings with the field named", async (t) => {
  const platform = await h.request("POST", "/platform/api/v1/accounts", { token: h.platformToken, body: { name: MB } });
  t.is(platform.status, 422);
  t.deepEqual(platform.body, tooLong("Name is too long (maximum is 255 characters)", "name"));

  const account = await createAccount(h);
  const inbox = await h.request("POST", `/api/v1/accounts/${account.id}/inboxes`, {
    token: account.admin.token,
    body: { name: "Support", greeting_message: "g".repeat(10_001), channel: { type: "api" } },
  });
  t.is(inbox.status, 422);
  t.deepEqual(inbox.body, tooLong("Greeting message is too long (maximum is 10000 characters)", "greeting_message"));

  const holiday = await h.request("POST", `/api/v1/accounts/${account.id}/scheduling/holidays`, {
    token: account.admin.token,
    body: { date: MB, title: "New Year" },
  });
  t.is(holiday.status, 422);
  // The scheduling extension's own error shape (docs/scheduling.md).
  t.like(holiday.body, { code: "VALIDATION_ERROR" });
  t.true(holiday.body.details.date.includes("is too long (maximum is 255 characters)"));
});
