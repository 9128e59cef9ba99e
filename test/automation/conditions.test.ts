import test from "ava";
import type { AutomationCondition } from "../../src/models/AutomationRule";
import { type ConditionSnapshot, evaluateConditions, joinWithPrecedence } from "../../src/services/automation/conditions";

const now = new Date("2026-11-22T12:00:00Z");

function snapshot(overrides: Partial<ConditionSnapshot> = {}): ConditionSnapshot {
  return {
    conversation: {
      status: "open",
      priority: null,
      assignee_id: 7,
      inbox_id: 3,
      team_id: null,
      display_id: 1,
      contact_id: 9,
      campaign_id: null,
      labels: ["billing"],
      additional_attributes: { browser_language: "de", referer: "https://shop.example.com/cart" },
      custom_attributes: { plan: "gold", seats: 12 },
      created_at: new Date("2026-11-01T00:00:00Z"),
      last_activity_at: now,
    },
    contact: {
      name: "Jane Roe",
      email: "jane@example.com",
      phone_number: "+4930123456",
      identifier: null,
      blocked: false,
      additional_attributes: { city: "Berlin", country_code: "DE" },
      custom_attributes: { tier: "vip", signup: "2026-01-01" },
      created_at: new Date("2026-01-01T00:00:00Z"),
      last_activity_at: null,
    },
    messages: [{ content: "I need a REFUND please", message_type: "incoming", private: false }],
    changedAttributes: {},
    customAttributes: {
      conversation_attribute: { plan: "text", seats: "number" },
      contact_attribute: { tier: "text", signup: "date" },
    },
    now,
    ...overrides,
  };
}

const c = (
  attribute_key: string,
  filter_operator: string,
  values: unknown,
  query_operator: string | null = null,
  extra: Partial<AutomationCondition> = {},
): AutomationCondition => ({
  attribute_key,
  filter_operator,
  values,
  query_operator,
  ...extra,
});
const matches = (conditions: AutomationCondition[], snap = snapshot()) => evaluateConditions(conditions, snap).matched;

test("AND binds tighter than OR: a OR b AND c is a OR (b AND c)", (t) => {
  const join = (values: boolean[], ...operators: string[]) => {
    const items = values.map((value, index) => ({ value, operator: operators[index] ?? "" }));
    return joinWithPrecedence(
      items,
      (item) => item.operator,
      (item) => item.value,
    );
  };
  t.true(join([true, false, false], "OR", "AND"), "true OR (false AND false)");
  t.false(join([false, true, false], "OR", "AND"), "false OR (true AND false)");
  t.true(join([false, true, true], "AND", "OR"), "(false AND true) OR true");
  t.false(join([true, false, false], "AND", "OR"), "(true AND false) OR false");
  t.true(join([], ""));
});

test("conditions joined by query_operator follow SQL precedence on real attributes", (t) => {
  const statusOpen = c("status", "equal_to", ["open"], "OR");
  const resolvedAnd = c("status", "equal_to", ["resolved"], "AND");
  // status = open OR (status = resolved AND inbox = 99): true by the first alone.
  t.true(matches([statusOpen, resolvedAnd, c("inbox_id", "equal_to", [99])]));
  t.false(matches([resolvedAnd, c("inbox_id", "equal_to", [3], "OR"), c("priority", "equal_to", ["urgent"])]));
  // open OR (inbox 99 AND urgent) is true; read left to right, (open OR inbox 99) AND urgent would be false.
  t.true(matches([c("status", "equal_to", ["open"], "OR"), c("inbox_id", "equal_to", [99], "AND"), c("priority", "equal_to", ["urgent"])]));
});

test("equal_to / not_equal_to, with NULL satisfying neither (as SQL IN / NOT IN)", (t) => {
  t.true(matches([c("status", "equal_to", ["pending", "open"])]));
  t.false(matches([c("status", "not_equal_to", ["open"])]));
  t.true(matches([c("assignee_id", "equal_to", ["7"])]), "ids compare by value");
  t.false(matches([c("priority", "not_equal_to", ["urgent"])]), "NULL priority is not unequal");
  t.true(matches([c("browser_language", "equal_to", ["de"])]));
  t.true(matches([c("message_type", "equal_to", ["incoming"])]));
  t.true(matches([c("private_note", "equal_to", [false])]));
  t.true(matches([c("blocked", "equal_to", ["false"])]));
});

test("contains / does_not_contain are case-insensitive; content is lower-cased", (t) => {
  t.true(matches([c("content", "contains", ["refund"])]));
  t.true(matches([c("content", "equal_to", ["i need a refund please"])]));
  t.false(matches([c("content", "does_not_contain", ["Refund"])]));
  t.true(matches([c("email", "contains", ["EXAMPLE.com"])]));
  t.true(matches([c("referer", "does_not_contain", ["checkout"])]));
  t.true(matches([c("city", "contains", ["berl"])]));
});

test("is_present / is_not_present, starts_with, labels", (t) => {
  t.true(matches([c("assignee_id", "is_present", [])]));
  t.true(matches([c("team_id", "is_not_present", [])]));
  t.true(matches([c("phone_number", "starts_with", ["+49"])]));
  t.false(matches([c("phone_number", "starts_with", ["+33"])]));
  t.true(matches([c("labels", "equal_to", ["billing", "sales"])]));
  t.false(matches([c("labels", "not_equal_to", ["billing"])]));
  t.true(matches([c("labels", "is_present", [])]));
  t.true(matches([c("labels", "is_not_present", [])], snapshot({ conversation: { ...snapshot().conversation, labels: [] } })));
});

test("is_greater_than / is_less_than / days_before on dates and numbers", (t) => {
  t.true(matches([c("created_at", "is_greater_than", ["2026-10-01"])]));
  t.true(matches([c("created_at", "is_less_than", ["2026-11-02"])]));
  t.true(matches([c("created_at", "days_before", [7])]), "created three weeks ago");
  t.false(matches([c("last_activity_at", "days_before", [1])]));
  t.true(matches([c("seats", "is_greater_than", [10], null, { custom_attribute_type: "conversation_attribute" })]));
  t.false(matches([c("seats", "is_less_than", ["5"], null, { custom_attribute_type: "conversation_attribute" })]));
});

test("custom attributes are found by definition: conversation's by type, the contact's by default", (t) => {
  t.true(matches([c("plan", "equal_to", ["gold"], null, { custom_attribute_type: "conversation_attribute" })]));
  t.true(matches([c("tier", "equal_to", ["vip"])]), "no custom_attribute_type: the contact's");
  t.true(matches([c("signup", "is_less_than", ["2026-06-01"], null, { custom_attribute_type: "contact_attribute" })]));
  const result = evaluateConditions([c("plan", "equal_to", ["gold"])], snapshot());
  t.false(result.matched, "plan is a conversation attribute, not the contact's");
  t.false(matches([c("nope", "equal_to", ["x"])]), "an undefined attribute never matches");
});

test("an operator the attribute does not allow makes the rule not match", (t) => {
  const result = evaluateConditions([c("status", "contains", ["op"])], snapshot());
  t.false(result.matched);
  t.regex((result as { reason: string }).reason, /not allowed/);
});

test("message conditions hold on one row: any message of the conversation, or none without messages", (t) => {
  const messages = [
    { content: "hello", message_type: "incoming" as const, private: false },
    { content: "internal refund note", message_type: "outgoing" as const, private: true },
  ];
  // One row must satisfy both: the private note is the one that mentions the refund.
  t.true(matches([c("content", "contains", ["refund"], "AND"), c("private_note", "equal_to", [true])], snapshot({ messages })));
  t.false(matches([c("content", "contains", ["refund"], "AND"), c("message_type", "equal_to", ["incoming"])], snapshot({ messages })));
  t.false(matches([c("content", "contains", ["refund"])], snapshot({ messages: [] })));
  t.true(matches([c("status", "equal_to", ["open"])], snapshot({ messages: [] })));
});

test("attribute_changed matches the event's [before, after] and combines with the rest by its query_operator", (t) => {
  const changed = snapshot({ changedAttributes: { status: ["open", "resolved"] } });
  const statusChange = (op: string | null) => c("status", "attribute_changed", { from: ["open"], to: ["resolved"] }, op);
  t.true(matches([statusChange(null)], changed));
  t.false(matches([c("status", "attribute_changed", { from: ["pending"], to: ["resolved"] })], changed));
  t.false(matches([statusChange(null)], snapshot()), "nothing changed");
  // AND: the other conditions must hold too.
  t.true(matches([statusChange("AND"), c("inbox_id", "equal_to", [3])], changed));
  t.false(matches([statusChange("AND"), c("inbox_id", "equal_to", [4])], changed));
  // OR: the change alone suffices.
  t.true(matches([statusChange("OR"), c("inbox_id", "equal_to", [4])], changed));
});
