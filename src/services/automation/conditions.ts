/**
 * Automation rule conditions evaluated over a loaded snapshot, with the semantics of Chatwoot's
 * AutomationRules::ConditionsFilterService (docs/reports-and-filters.md). Chatwoot builds one SQL
 * WHERE over the conversation LEFT JOINed to its contact and messages; this evaluates the same
 * expression row by row in memory, so it has no I/O and is unit-tested on its own.
 */
import type { AutomationCondition } from "../../models/AutomationRule";
import {
  automationAttribute,
  customAttribute,
  type CustomAttributeKind,
  type CustomAttributeModel,
  FILTER_ATTRIBUTES,
  type FilterAttribute,
  type FilterModel,
  type ValueKind,
} from "../filters/attributes";

export type { CustomAttributeKind, CustomAttributeModel };

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

/** An attribute as a condition tests it: what the vocabulary says of it, and how to read it from a row. */
export interface AttributeSpec<R = Row> extends FilterAttribute {
  read: (row: R) => Value | string[];
}

/** The row's record of the model: the conversation, its contact, or the message of the join. */
const RECORD_OF: Record<FilterModel, (row: Row) => Record<string, unknown> | null | undefined> = {
  conversation: (row) => row.snapshot.conversation,
  contact: (row) => row.snapshot.contact,
  message: (row) => row.message as unknown as Record<string, unknown> | null,
};

/** Reads the attribute where the shared vocabulary says it is stored. */
function withReader(model: FilterModel, spec: FilterAttribute): AttributeSpec {
  const recordOf = RECORD_OF[model];
  const { source } = spec;
  const read =
    "column" in source
      ? (row: Row) => recordOf(row)?.[source.column] as Value
      : "additional" in source
        ? (row: Row) => (recordOf(row)?.additional_attributes as Record<string, unknown> | undefined)?.[source.additional] as Value
        : (row: Row) => (recordOf(row)?.custom_attributes as Record<string, unknown> | undefined)?.[source.custom] as Value;
  return { ...spec, read };
}

/** Attributes read from messages: without them the rule needs no message rows. */
export const MESSAGE_ATTRIBUTES: readonly string[] = Object.keys(FILTER_ATTRIBUTES.message);

/**
 * ConditionsFilterService#custom_attribute: a key outside filter_keys is a custom attribute of the
 * model custom_attribute_type names, and a missing type means the contact's.
 */
function specOf(condition: AutomationCondition, snapshot: ConditionSnapshot): AttributeSpec | undefined {
  const known = automationAttribute(condition.attribute_key);
  if (known) return withReader(known.model, known.spec);
  const model: CustomAttributeModel = condition.custom_attribute_type === "conversation_attribute" ? "conversation_attribute" : "contact_attribute";
  const kind = snapshot.customAttributes[model][condition.attribute_key];
  if (!kind) return undefined;
  return withReader(model === "conversation_attribute" ? "conversation" : "contact", customAttribute(condition.attribute_key, kind));
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
function test<R>(condition: AutomationCondition, spec: AttributeSpec<R>, row: R, now: Date): boolean {
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
  // The rule matches when any row of the join does; without messages the LEFT JOIN still yields one row.
  const rows: Row[] = (snapshot.messages.length ? snapshot.messages : [null]).map((message) => ({ snapshot, message }));
  return matchConditions(conditions, (condition) => specOf(condition, snapshot), rows, snapshot.changedAttributes, snapshot.now);
}

/**
 * The conditions over rows of whatever a rule looks at (the conversation join, or a booking): true
 * when any row passes the filters, combined with the attribute_changed conditions over `changed`.
 */
export function matchConditions<R>(
  conditions: readonly AutomationCondition[],
  specFor: (condition: AutomationCondition) => AttributeSpec<R> | undefined,
  rows: readonly R[],
  changed: Record<string, [unknown, unknown]>,
  now: Date,
): ConditionResult {
  const changeConditions = conditions.filter((c) => c.filter_operator === "attribute_changed");
  const filters = conditions.filter((c) => c.filter_operator !== "attribute_changed");

  const specs = new Map<AutomationCondition, AttributeSpec<R>>();
  for (const condition of filters) {
    const spec = specFor(condition);
    if (!spec) return { matched: false, reason: `condition on unknown attribute ${condition.attribute_key}` };
    if (!(spec.operators as readonly string[]).includes(condition.filter_operator ?? "")) {
      return { matched: false, reason: `operator ${condition.filter_operator} is not allowed for ${condition.attribute_key}` };
    }
    specs.set(condition, spec);
  }

  const filtered = rows.some((row) => joinWithPrecedence(filters, operatorOf, (c) => test(c, specs.get(c)!, row, now)));
  if (!changeConditions.length) return filtered ? { matched: true } : { matched: false, reason: "conditions do not match" };

  // perform_attribute_changed_filter: each matching change condition adds the filtered result (its
  // query_operator AND) or everything (any other operator, null included) to what the previous
  // change conditions kept; a change condition that does not match adds nothing.
  let kept = false;
  let previous = true;
  for (const condition of changeConditions) {
    if (changeMatches(condition, changed)) {
      kept = kept || (operatorOf(condition) === "AND" ? previous && filtered : previous || filtered);
    }
    previous = kept;
  }
  return kept ? { matched: true } : { matched: false, reason: "attribute_changed conditions do not match" };
}
