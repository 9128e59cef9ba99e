/**
 * Automation rule conditions evaluated over a loaded snapshot, with the semantics of Chatwoot's
 * AutomationRules::ConditionsFilterService (reference/chatwoot.md section 3). Chatwoot builds one SQL
 * WHERE over the conversation LEFT JOINed to its contact and messages; this evaluates the same
 * expression row by row in memory, so it has no I/O and is unit-tested on its own.
 */
import type { AutomationCondition } from "../../models/AutomationRule";

export type CustomAttributeModel = "conversation_attribute" | "contact_attribute";
export type CustomAttributeKind = "text" | "number" | "date" | "checkbox";

export interface SnapshotMessage {
  /** processed_message_content, else content. */
  content: string | null;
  message_type: "incoming" | "outgoing" | "activity" | "template";
  private: boolean;
}

export interface ConditionSnapshot {
  conversation: {
    status: string;
    priority: string | null;
    assignee_id: number | null;
    inbox_id: number;
    team_id: number | null;
    display_id: number;
    contact_id: number | null;
    campaign_id: number | null;
    labels: string[];
    additional_attributes: Record<string, unknown>;
    custom_attributes: Record<string, unknown>;
    created_at: Date;
    last_activity_at: Date;
  };
  contact: {
    name: string | null;
    email: string | null;
    phone_number: string | null;
    identifier: string | null;
    blocked: boolean;
    additional_attributes: Record<string, unknown>;
    custom_attributes: Record<string, unknown>;
    created_at: Date;
    last_activity_at: Date | null;
  } | null;
  /** The event's message for message_created; every message of the conversation otherwise. */
  messages: SnapshotMessage[];
  /** `{attribute: [before, after]}` of a conversation_updated event. */
  changedAttributes: Record<string, [unknown, unknown]>;
  /** The account's custom attribute definitions by model and key. */
  customAttributes: Record<CustomAttributeModel, Record<string, CustomAttributeKind>>;
  /** "Now", for days_before. */
  now: Date;
}

export type ConditionResult = { matched: true } | { matched: false; reason: string };

type Value = string | number | boolean | Date | null | undefined;
type Row = { snapshot: ConditionSnapshot; message: SnapshotMessage | null };
type ValueKind = "text" | "number" | "date" | "boolean" | "id" | "labels";

interface AttributeSpec {
  operators: readonly string[];
  kind: ValueKind;
  read: (row: Row) => Value | string[];
  /** Compared lower-cased (Chatwoot lower-cases message content). */
  caseInsensitive?: boolean;
}

const EQUALITY = ["equal_to", "not_equal_to"] as const;
const PRESENCE = [...EQUALITY, "is_present", "is_not_present"] as const;
const TEXT = [...EQUALITY, "contains", "does_not_contain"] as const;
const DATES = ["is_greater_than", "is_less_than", "days_before"] as const;

const conversationAttr = (key: string) => (row: Row) => row.snapshot.conversation.additional_attributes[key] as Value;
const contactAttr = (key: string) => (row: Row) => row.snapshot.contact?.additional_attributes[key] as Value;

/**
 * lib/filters/filter_keys.yml: which operators each attribute allows and where it is read. The first
 * table that knows a key wins, conversations before contacts before messages, as in apply_filter.
 */
const ATTRIBUTES: Record<string, AttributeSpec> = {
  // conversations
  status: { operators: EQUALITY, kind: "text", read: (r) => r.snapshot.conversation.status },
  priority: { operators: EQUALITY, kind: "text", read: (r) => r.snapshot.conversation.priority },
  assignee_id: { operators: PRESENCE, kind: "id", read: (r) => r.snapshot.conversation.assignee_id },
  inbox_id: { operators: PRESENCE, kind: "id", read: (r) => r.snapshot.conversation.inbox_id },
  team_id: { operators: PRESENCE, kind: "id", read: (r) => r.snapshot.conversation.team_id },
  display_id: { operators: PRESENCE, kind: "id", read: (r) => r.snapshot.conversation.display_id },
  campaign_id: { operators: PRESENCE, kind: "id", read: (r) => r.snapshot.conversation.campaign_id },
  contact_id: { operators: PRESENCE, kind: "id", read: (r) => r.snapshot.conversation.contact_id },
  browser_language: { operators: EQUALITY, kind: "text", read: conversationAttr("browser_language") },
  conversation_language: { operators: EQUALITY, kind: "text", read: conversationAttr("conversation_language") },
  referer: { operators: TEXT, kind: "text", read: conversationAttr("referer") },
  mail_subject: { operators: TEXT, kind: "text", read: conversationAttr("mail_subject") },
  labels: { operators: PRESENCE, kind: "labels", read: (r) => r.snapshot.conversation.labels },
  created_at: { operators: DATES, kind: "date", read: (r) => r.snapshot.conversation.created_at },
  last_activity_at: { operators: DATES, kind: "date", read: (r) => r.snapshot.conversation.last_activity_at },
  // contacts
  email: { operators: TEXT, kind: "text", read: (r) => r.snapshot.contact?.email },
  name: { operators: TEXT, kind: "text", read: (r) => r.snapshot.contact?.name },
  phone_number: { operators: [...TEXT, "starts_with"], kind: "text", read: (r) => r.snapshot.contact?.phone_number },
  identifier: { operators: EQUALITY, kind: "text", read: (r) => r.snapshot.contact?.identifier },
  country_code: { operators: EQUALITY, kind: "text", read: contactAttr("country_code") },
  city: { operators: TEXT, kind: "text", read: contactAttr("city") },
  company_name: { operators: TEXT, kind: "text", read: contactAttr("company_name") },
  blocked: { operators: EQUALITY, kind: "boolean", read: (r) => r.snapshot.contact?.blocked },
  // messages
  message_type: { operators: EQUALITY, kind: "text", read: (r) => r.message?.message_type },
  private_note: { operators: EQUALITY, kind: "boolean", read: (r) => r.message?.private },
  content: { operators: TEXT, kind: "text", read: (r) => r.message?.content, caseInsensitive: true },
};

/** Attributes read from messages: without them the rule needs no message rows. */
export const MESSAGE_ATTRIBUTES: readonly string[] = ["message_type", "private_note", "content"];

const CUSTOM_OPERATORS: Record<CustomAttributeKind, readonly string[]> = {
  text: [...PRESENCE, "contains", "does_not_contain"],
  number: [...PRESENCE, "is_greater_than", "is_less_than"],
  date: [...PRESENCE, ...DATES],
  checkbox: EQUALITY,
};
const CUSTOM_KINDS: Record<CustomAttributeKind, ValueKind> = { text: "text", number: "number", date: "date", checkbox: "boolean" };

/**
 * ConditionsFilterService#custom_attribute: a key outside the tables is a custom attribute of the
 * model custom_attribute_type names, and a missing type means the contact's.
 */
function specOf(condition: AutomationCondition, snapshot: ConditionSnapshot): AttributeSpec | undefined {
  const known = ATTRIBUTES[condition.attribute_key];
  if (known) return known;
  const model: CustomAttributeModel = condition.custom_attribute_type === "conversation_attribute" ? "conversation_attribute" : "contact_attribute";
  const kind = snapshot.customAttributes[model][condition.attribute_key];
  if (!kind) return undefined;
  const key = condition.attribute_key;
  return {
    operators: CUSTOM_OPERATORS[kind],
    kind: CUSTOM_KINDS[kind],
    read: model === "conversation_attribute" ? (r) => r.snapshot.conversation.custom_attributes[key] as Value : (r) => r.snapshot.contact?.custom_attributes[key] as Value,
  };
}

const valuesOf = (condition: AutomationCondition): unknown[] =>
  Array.isArray(condition.values) ? condition.values : condition.values === undefined || condition.values === null ? [] : [condition.values];

/** Casts a value the way the SQL comparison would; undefined when it cannot be cast (no match). */
function cast(value: unknown, kind: ValueKind): string | number | boolean | undefined {
  if (value === null || value === undefined) return undefined;
  switch (kind) {
    case "number": {
      const n = typeof value === "number" ? value : Number(value);
      return Number.isFinite(n) ? n : undefined;
    }
    case "date": {
      const d = value instanceof Date ? value : new Date(String(value));
      return Number.isNaN(d.getTime()) ? undefined : d.getTime();
    }
    case "boolean":
      return value === true || value === "true" ? true : value === false || value === "false" ? false : undefined;
    default:
      return String(value);
  }
}

const DAY_MS = 86_400_000;
const startOfUtcDay = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());

/**
 * One condition on one row. As in SQL, a NULL attribute satisfies no comparison (not even
 * not_equal_to or does_not_contain); only is_not_present matches it.
 */
function test(condition: AutomationCondition, spec: AttributeSpec, row: Row, now: Date): boolean {
  const raw = spec.read(row);
  const operator = condition.filter_operator;
  if (spec.kind === "labels") {
    const labels = (raw as string[]) ?? [];
    const wanted = valuesOf(condition).map(String);
    if (operator === "is_present") return labels.length > 0;
    if (operator === "is_not_present") return labels.length === 0;
    const any = labels.some((label) => wanted.includes(label));
    return operator === "equal_to" ? any : !any;
  }
  const blank = raw === null || raw === undefined || raw === "";
  if (operator === "is_present") return !blank;
  if (operator === "is_not_present") return blank;

  const norm = (value: unknown) => {
    const cast_ = cast(value, spec.kind);
    return spec.caseInsensitive && typeof cast_ === "string" ? cast_.toLowerCase() : cast_;
  };
  const value = norm(raw);
  if (value === undefined) return false;
  const values = valuesOf(condition);
  switch (operator) {
    case "equal_to":
      return values.map(norm).includes(value);
    case "not_equal_to":
      return !values.map(norm).includes(value);
    case "contains":
    case "does_not_contain": {
      const text = String(value).toLowerCase();
      const hit = values.some((v) => text.includes(String(v).toLowerCase()));
      return operator === "contains" ? hit : !hit;
    }
    case "starts_with":
      return values.some((v) => String(value).startsWith(String(v)));
    case "is_greater_than":
    case "is_less_than": {
      const bound = cast(values[0], spec.kind);
      if (typeof bound !== "number" || typeof value !== "number") return false;
      return operator === "is_greater_than" ? value > bound : value < bound;
    }
    case "days_before": {
      const days = Number(values[0]);
      return typeof value === "number" && Number.isFinite(days) && value < startOfUtcDay(now) - days * DAY_MS;
    }
    default:
      return false;
  }
}

const operatorOf = (condition: AutomationCondition) => (condition.query_operator ?? "").toUpperCase();

/**
 * The conditions joined in array order, each by its own query_operator to the next, without
 * parentheses: as in SQL, AND binds tighter than OR, so `a OR b AND c` is `a OR (b AND c)`. The
 * expression is a disjunction of AND-groups, split at every OR.
 */
export function joinWithPrecedence<T>(conditions: readonly T[], operatorOf_: (item: T) => string, truth: (item: T) => boolean): boolean {
  if (!conditions.length) return true;
  const groups: T[][] = [[]];
  conditions.forEach((condition, index) => {
    groups.at(-1)!.push(condition);
    if (index < conditions.length - 1 && operatorOf_(condition) === "OR") groups.push([]);
  });
  return groups.some((group) => group.every(truth));
}

/** `values: {from: [...], to: [...]}` against the change `[before, after]` of the attribute. */
function changeMatches(condition: AutomationCondition, changed: Record<string, [unknown, unknown]>): boolean {
  const change = changed[condition.attribute_key];
  const values = condition.values as { from?: unknown[]; to?: unknown[] } | undefined;
  if (!change || !values || typeof values !== "object") return false;
  const within = (value: unknown, list: unknown[] | undefined) => (list ?? []).some((item) => String(item) === String(value));
  return within(change[0], values.from) && within(change[1], values.to);
}

/** Whether the rule's conditions hold for the snapshot; an invalid condition makes the rule not match, with the reason. */
export function evaluateConditions(conditions: readonly AutomationCondition[], snapshot: ConditionSnapshot): ConditionResult {
  const changeConditions = conditions.filter((c) => c.filter_operator === "attribute_changed");
  const filters = conditions.filter((c) => c.filter_operator !== "attribute_changed");

  const specs = new Map<AutomationCondition, AttributeSpec>();
  for (const condition of filters) {
    const spec = specOf(condition, snapshot);
    if (!spec) return { matched: false, reason: `condition on unknown attribute ${condition.attribute_key}` };
    if (!spec.operators.includes(condition.filter_operator ?? "")) {
      return { matched: false, reason: `operator ${condition.filter_operator} is not allowed for ${condition.attribute_key}` };
    }
    specs.set(condition, spec);
  }

  // The rule matches when any row of the join does; without messages the LEFT JOIN still yields one row.
  const rows: Row[] = (snapshot.messages.length ? snapshot.messages : [null]).map((message) => ({ snapshot, message }));
  const filtered = rows.some((row) => joinWithPrecedence(filters, operatorOf, (c) => test(c, specs.get(c)!, row, snapshot.now)));
  if (!changeConditions.length) return filtered ? { matched: true } : { matched: false, reason: "conditions do not match" };

  // perform_attribute_changed_filter: each matching change condition adds the filtered result (its
  // query_operator AND) or everything (any other operator, null included) to what the previous
  // change conditions kept; a change condition that does not match adds nothing.
  let kept = false;
  let previous = true;
  for (const condition of changeConditions) {
    if (changeMatches(condition, snapshot.changedAttributes)) {
      kept = kept || (operatorOf(condition) === "AND" ? previous && filtered : previous || filtered);
    }
    previous = kept;
  }
  return kept ? { matched: true } : { matched: false, reason: "attribute_changed conditions do not match" };
}
