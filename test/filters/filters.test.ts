import test from "ava";
import { createContact, createInbox, defineAttribute, setInboxMembers } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

type Condition = { attribute_key: string; filter_operator: string; values?: unknown; query_operator?: string | null; custom_attribute_type?: string };

const filterContacts = (account: TestAccount, payload: Condition[], query = "") =>
  accountApi(h, account, account.agent.token).post(`/contacts/filter${query}`, { payload });
const filterConversations = (account: TestAccount, payload: Condition[], token = account.admin.token, query = "") =>
  h.request("POST", `/api/v1/accounts/${account.id}/conversations/filter${query}`, { token, body: { payload } });

const cond = (attribute_key: string, filter_operator: string, values?: unknown, query_operator: string | null = null): Condition => ({
  attribute_key,
  filter_operator,
  values,
  query_operator,
});

interface ContactWorld {
  account: TestAccount;
  ids: { ann: number; bob: number; cy: number };
}

/** Ann (Paris, pro, score 5), Bob (Berlin, blocked, score 12) and Cy (no email, no attributes). */
async function contactWorld(): Promise<ContactWorld> {
  const account = await createAccount(h);
  await defineAttribute(h, account, "contact_attribute", "plan");
  await defineAttribute(h, account, "contact_attribute", "score", "number");
  await defineAttribute(h, account, "contact_attribute", "renewal", "date");
  const ann = await createContact(h, account, {
    name: "Ann Lee",
    email: "ann@example.com",
    phone_number: "+14155550100",
    additional_attributes: { city: "Paris", company_name: "Acme" },
    custom_attributes: { plan: "pro", score: 5, renewal: "2030-01-15" },
  });
  const bob = await createContact(h, account, {
    name: "Bob Stone",
    email: "bob@example.org",
    phone_number: "+4930123456",
    blocked: true,
    additional_attributes: { city: "Berlin" },
    custom_attributes: { score: 12, renewal: "2020-06-01" },
  });
  const cy = await createContact(h, account, { name: "cy" });
  await expectOk(accountApi(h, account).post("/labels", { title: "vip" }), "label");
  await expectOk(accountApi(h, account).post(`/contacts/${bob.contact.id}/labels`, { labels: ["vip"] }), "contact label");
  return { account, ids: { ann: ann.contact.id, bob: bob.contact.id, cy: cy.contact.id } };
}

async function matchedContacts(w: ContactWorld, payload: Condition[]) {
  const response = await filterContacts(w.account, payload);
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  const names = Object.fromEntries(Object.entries(w.ids).map(([name, id]) => [id, name]));
  return (response.body.payload as { id: number }[]).map((c) => names[c.id]).sort();
}

test("contacts/filter: standard, additional and custom attributes with each operator, joined by AND/OR with SQL precedence", async (t) => {
  const w = await contactWorld();
  const cases: [string, Condition[], string[]][] = [
    ["name equal_to, case-insensitive", [cond("name", "equal_to", ["ANN LEE"])], ["ann"]],
    ["name not_equal_to", [cond("name", "not_equal_to", ["Ann Lee"])], ["bob", "cy"]],
    ["email contains", [cond("email", "contains", ["EXAMPLE.org"])], ["bob"]],
    ["email does_not_contain leaves out contacts without one, as SQL does", [cond("email", "does_not_contain", ["example.org"])], ["ann"]],
    ["email contains treats % literally", [cond("email", "contains", ["%"])], []],
    ["phone equal_to without the plus, as WhatsApp bridges send it", [cond("phone_number", "equal_to", ["14155550100"])], ["ann"]],
    ["phone equal_to with the plus", [cond("phone_number", "equal_to", ["+14155550100"])], ["ann"]],
    ["phone starts_with", [cond("phone_number", "starts_with", ["+49"])], ["bob"]],
    ["custom text is_present", [cond("plan", "is_present")], ["ann"]],
    ["city (additional attribute)", [cond("city", "equal_to", ["berlin"])], ["bob"]],
    ["company_name contains", [cond("company_name", "contains", ["cm"])], ["ann"]],
    ["blocked equal_to true", [cond("blocked", "equal_to", [true])], ["bob"]],
    ["blocked equal_to 'false'", [cond("blocked", "equal_to", ["false"])], ["ann", "cy"]],
    ["created_at is_greater_than", [cond("created_at", "is_greater_than", ["2000-01-01"])], ["ann", "bob", "cy"]],
    ["created_at days_before", [cond("created_at", "days_before", [3])], []],
    ["labels equal_to", [cond("labels", "equal_to", ["vip"])], ["bob"]],
    ["labels is_not_present", [cond("labels", "is_not_present")], ["ann", "cy"]],
    ["custom text equal_to", [cond("plan", "equal_to", ["pro"])], ["ann"]],
    ["custom text is_not_present", [cond("plan", "is_not_present")], ["bob", "cy"]],
    ["custom number is_greater_than", [cond("score", "is_greater_than", ["10"])], ["bob"]],
    ["custom number is_less_than", [cond("score", "is_less_than", [10])], ["ann"]],
    ["custom date is_less_than", [cond("renewal", "is_less_than", ["2025-01-01"])], ["bob"]],
    ["a bare value instead of a list", [cond("name", "equal_to", "cy")], ["cy"]],
    ["OR", [cond("name", "equal_to", ["Ann Lee"], "OR"), cond("email", "contains", ["example.org"])], ["ann", "bob"]],
    ["AND", [cond("email", "contains", ["example"], "and"), cond("blocked", "equal_to", [false])], ["ann"]],
    // a OR b AND c reads a OR (b AND c): Cy, or (Bob and not blocked) = Cy only.
    [
      "AND binds tighter than OR",
      [cond("name", "equal_to", ["cy"], "OR"), cond("name", "equal_to", ["Bob Stone"], "AND"), cond("blocked", "equal_to", [false])],
      ["cy"],
    ],
  ];
  for (const [what, payload, expected] of cases) t.deepEqual(await matchedContacts(w, payload), expected, what);
});

test("contacts/filter answers the list's shape and pages 15 at a time", async (t) => {
  const w = await contactWorld();
  const first = await filterContacts(w.account, [cond("name", "equal_to", ["Ann Lee"])]);
  t.is(first.status, 200);
  t.deepEqual(first.body.meta, { count: 1, current_page: 1 });
  t.like(first.body.payload[0], { id: w.ids.ann, name: "Ann Lee", email: "ann@example.com", availability_status: "offline", contact_inboxes: [] });

  for (let i = 0; i < 16; i++) await createContact(h, w.account, { name: `Many ${i}`, email: `many-${i}@example.net` });
  const payload = [cond("email", "contains", ["example.net"])];
  const page1 = await filterContacts(w.account, payload);
  const page2 = await filterContacts(w.account, payload, "?page=2");
  t.deepEqual(page1.body.meta, { count: 16, current_page: 1 });
  t.deepEqual(page2.body.meta, { count: 16, current_page: "2" });
  t.is(page1.body.payload.length, 15);
  t.is(page2.body.payload.length, 1);
  t.is(new Set([...page1.body.payload, ...page2.body.payload].map((c: { id: number }) => c.id)).size, 16);

  const other = await createAccount(h);
  const isolated = await filterContacts(other, [cond("email", "contains", ["example"])]);
  t.deepEqual(isolated.body, { meta: { count: 0, current_page: 1 }, payload: [] }, "another account's contacts are never matched");
});

test("contacts/filter: unknown attributes, operators, query operators and missing values answer 422 with Chatwoot's messages", async (t) => {
  const w = await contactWorld();
  await defineAttribute(h, w.account, "conversation_attribute", "order_ref");
  const keys = "email,name,phone_number,identifier,country_code,city,company_name,blocked,labels,created_at,last_activity_at";
  const cases: [Condition[], string][] = [
    [
      [cond("shoe_size", "equal_to", ["42"])],
      `Invalid attribute key - [shoe_size]. The key should be one of [${keys}] or a custom attribute defined in the account.`,
    ],
    [
      [cond("order_ref", "equal_to", ["x"])],
      `Invalid attribute key - [order_ref]. The key should be one of [${keys}] or a custom attribute defined in the account.`,
    ],
    [[cond("name", "starts_with", ["A"])], "Invalid operator. The allowed operators for name are [equal_to,not_equal_to,contains,does_not_contain]."],
    [[cond("blocked", "bogus", [true])], "Invalid operator. The allowed operators for blocked are [equal_to,not_equal_to]."],
    [
      [cond("plan", "is_greater_than", ["a"])],
      "Invalid operator. The allowed operators for plan are [equal_to,not_equal_to,is_present,is_not_present,contains,does_not_contain].",
    ],
    [[cond("email", "is_present")], "Invalid operator. The allowed operators for email are [equal_to,not_equal_to,contains,does_not_contain]."],
    [[cond("name", "equal_to", ["Ann"], "XOR"), cond("plan", "is_present")], 'Query operator must be either "AND" or "OR".'],
    [[cond("name", "equal_to", [])], "Invalid value. The values provided for name are invalid"],
    [[cond("email", "contains")], "Invalid value. The values provided for email are invalid"],
    [[cond("score", "is_greater_than", ["many"])], "Invalid value. The values provided for score are invalid"],
    [[cond("created_at", "is_greater_than", ["not a date"])], "Invalid value. The values provided for created_at are invalid"],
    [[cond("blocked", "equal_to", ["maybe"])], "Invalid value. The values provided for blocked are invalid"],
  ];
  for (const [payload, error] of cases) {
    const response = await filterContacts(w.account, payload);
    t.is(response.status, 422, JSON.stringify(payload));
    t.deepEqual(response.body, { error }, JSON.stringify(payload));
  }
  const noPayload = await accountApi(h, w.account, w.account.agent.token).post("/contacts/filter", {});
  t.is(noPayload.status, 422);
  t.deepEqual(noPayload.body.attributes, ["payload"]);
  t.is((await h.request("POST", `/api/v1/accounts/${w.account.id}/contacts/filter`, { body: { payload: [cond("name", "is_present")] } })).status, 401);
});

test("conversations/filter: statuses, assignees, inboxes, labels and custom attributes, with Chatwoot's meta, inside the caller's inboxes", async (t) => {
  const account = await createAccount(h);
  await defineAttribute(h, account, "conversation_attribute", "order_ref");
  const support = await createInbox(h, account, { name: "Support" });
  const sales = await createInbox(h, account, { name: "Sales" });
  await setInboxMembers(h, account, support.id, [account.agent.id]);
  const { contact } = await createContact(h, account, { name: "Ann", email: "ann@example.com" });
  const base = `/api/v1/accounts/${account.id}/conversations`;
  const start = async (inboxId: number, body: Record<string, unknown> = {}) =>
    (await expectOk(h.request("POST", base, { token: account.admin.token, body: { inbox_id: inboxId, contact_id: contact.id, ...body } }), "conversation"))
      .id as number;
  const a = await start(support.id, { assignee_id: account.agent.id, custom_attributes: { order_ref: "A-1" } });
  const b = await start(support.id);
  const c = await start(sales.id);
  await expectOk(h.request("POST", `${base}/${b}/toggle_status`, { token: account.admin.token, body: { status: "resolved" } }), "resolve");
  await expectOk(h.request("POST", `${base}/${c}/labels`, { token: account.admin.token, body: { labels: ["vip"] } }), "label");

  const ids = async (payload: Condition[], token = account.admin.token) => {
    const response = await filterConversations(account, payload, token);
    if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
    return (response.body.payload as { id: number }[]).map((x) => x.id).sort();
  };
  t.deepEqual(await ids([cond("status", "equal_to", ["open"])]), [a, c].sort());
  t.deepEqual(await ids([cond("status", "equal_to", ["all"])]), [a, b, c].sort());
  t.deepEqual(await ids([cond("status", "not_equal_to", ["open"])]), [b]);
  t.deepEqual(await ids([cond("assignee_id", "is_not_present")]), [b, c].sort());
  t.deepEqual(await ids([cond("assignee_id", "equal_to", [String(account.agent.id)])]), [a]);
  t.deepEqual(await ids([cond("inbox_id", "equal_to", [sales.id])]), [c]);
  t.deepEqual(await ids([cond("labels", "equal_to", ["vip"])]), [c]);
  t.deepEqual(await ids([cond("labels", "is_not_present")]), [a, b].sort());
  t.deepEqual(await ids([cond("order_ref", "equal_to", ["A-1"])]), [a]);
  t.deepEqual(await ids([cond("display_id", "equal_to", [b], "OR"), cond("display_id", "equal_to", [c])]), [b, c].sort());
  t.deepEqual(await ids([cond("status", "equal_to", ["all"])], account.agent.token), [a, b].sort(), "an agent sees only its inboxes");

  const response = await filterConversations(account, [cond("status", "equal_to", ["all"])]);
  t.deepEqual(response.body.meta, { mine_count: 0, unassigned_count: 2, all_count: 3 });
  const agentView = await filterConversations(account, [cond("status", "equal_to", ["open"])], account.agent.token);
  t.deepEqual(agentView.body.meta, { mine_count: 1, unassigned_count: 0, all_count: 1 });
  t.like(response.body.payload[0], { meta: { sender: { id: contact.id } }, account_id: account.id });
  t.false("data" in response.body);

  const unknown = await filterConversations(account, [cond("email", "equal_to", ["x"])]);
  t.is(unknown.status, 422);
  t.regex(unknown.body.error, /^Invalid attribute key - \[email\]\. The key should be one of \[status,priority,assignee_id,inbox_id,/);
  const badOperator = await filterConversations(account, [cond("status", "contains", ["op"])]);
  t.deepEqual(badOperator.body, { error: "Invalid operator. The allowed operators for status are [equal_to,not_equal_to]." });
  const badId = await filterConversations(account, [cond("inbox_id", "equal_to", ["support"])]);
  t.deepEqual(badId.body, { error: "Invalid value. The values provided for inbox_id are invalid" });
});

test("conversations/filter pages 25 at a time, newest activity first", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { name: "Ann" });
  const created: number[] = [];
  for (let i = 0; i < 26; i++) {
    created.push(
      (
        await expectOk(
          h.request("POST", `/api/v1/accounts/${account.id}/conversations`, {
            token: account.admin.token,
            body: { inbox_id: inbox.id, contact_id: contact.id },
          }),
          "c",
        )
      ).id,
    );
  }
  const first = await filterConversations(account, [cond("status", "equal_to", ["open"])]);
  const second = await filterConversations(account, [cond("status", "equal_to", ["open"])], account.admin.token, "?page=2");
  t.is(first.body.payload.length, 25);
  t.deepEqual(
    second.body.payload.map((c: { id: number }) => c.id),
    [created[0]],
  );
  t.is(first.body.meta.all_count, 26);
});
