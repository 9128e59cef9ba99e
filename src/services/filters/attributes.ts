/**
 * The filter vocabulary of Chatwoot's lib/filters/filter_keys.yml, shared by automation rule
 * conditions (evaluated in memory, src/services/automation/conditions.ts) and the contact and
 * conversation filters (evaluated in SQL, ./sql.ts): which attributes there are, where each is
 * stored, and which operators each accepts. This module is the one place that knows them.
 */
import { ATTRIBUTE_DISPLAY_TYPES } from "../../models/CustomAttributeDefinition";

/** Every filter_operator Chatwoot's FilterService knows. */
export const FILTER_OPERATORS = [
  "equal_to",
  "not_equal_to",
  "contains",
  "does_not_contain",
  "is_present",
  "is_not_present",
  "is_greater_than",
  "is_less_than",
  "days_before",
  "starts_with",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators that take no values. */
export const PRESENCE_OPERATORS: readonly string[] = ["is_present", "is_not_present"];

export type FilterModel = "conversation" | "contact" | "message";
export type ValueKind = "text" | "number" | "date" | "boolean" | "id" | "labels";

export interface FilterAttribute {
  operators: readonly FilterOperator[];
  kind: ValueKind;
  /** Where the value is stored: a column of the model's table, or a key of its additional or custom attributes. */
  source: { column: string } | { additional: string } | { custom: string };
  /** Compared lower-cased (Chatwoot lower-cases message content). */
  caseInsensitive?: boolean;
}

const EQUALITY = ["equal_to", "not_equal_to"] as const;
const PRESENCE = [...EQUALITY, "is_present", "is_not_present"] as const;
const TEXT = [...EQUALITY, "contains", "does_not_contain"] as const;
const DATES = ["is_greater_than", "is_less_than", "days_before"] as const;

const column = (name: string) => ({ column: name });
const additional = (key: string) => ({ additional: key });

/** filter_keys.yml by model. */
export const FILTER_ATTRIBUTES: Record<FilterModel, Record<string, FilterAttribute>> = {
  conversation: {
    status: { operators: EQUALITY, kind: "text", source: column("status") },
    priority: { operators: EQUALITY, kind: "text", source: column("priority") },
    assignee_id: { operators: PRESENCE, kind: "id", source: column("assignee_id") },
    inbox_id: { operators: PRESENCE, kind: "id", source: column("inbox_id") },
    team_id: { operators: PRESENCE, kind: "id", source: column("team_id") },
    display_id: { operators: PRESENCE, kind: "id", source: column("display_id") },
    campaign_id: { operators: PRESENCE, kind: "id", source: column("campaign_id") },
    contact_id: { operators: PRESENCE, kind: "id", source: column("contact_id") },
    browser_language: { operators: EQUALITY, kind: "text", source: additional("browser_language") },
    conversation_language: { operators: EQUALITY, kind: "text", source: additional("conversation_language") },
    referer: { operators: TEXT, kind: "text", source: additional("referer") },
    mail_subject: { operators: TEXT, kind: "text", source: additional("mail_subject") },
    labels: { operators: PRESENCE, kind: "labels", source: column("labels") },
    created_at: { operators: DATES, kind: "date", source: column("created_at") },
    last_activity_at: { operators: DATES, kind: "date", source: column("last_activity_at") },
  },
  contact: {
    email: { operators: TEXT, kind: "text", source: column("email") },
    name: { operators: TEXT, kind: "text", source: column("name") },
    phone_number: { operators: [...TEXT, "starts_with"], kind: "text", source: column("phone_number") },
    identifier: { operators: EQUALITY, kind: "text", source: column("identifier") },
    country_code: { operators: EQUALITY, kind: "text", source: additional("country_code") },
    city: { operators: TEXT, kind: "text", source: additional("city") },
    company_name: { operators: TEXT, kind: "text", source: additional("company_name") },
    blocked: { operators: EQUALITY, kind: "boolean", source: column("blocked") },
    labels: { operators: PRESENCE, kind: "labels", source: column("labels") },
    created_at: { operators: DATES, kind: "date", source: column("created_at") },
    last_activity_at: { operators: DATES, kind: "date", source: column("last_activity_at") },
  },
  message: {
    message_type: { operators: EQUALITY, kind: "text", source: column("message_type") },
    private_note: { operators: EQUALITY, kind: "boolean", source: column("private") },
    content: { operators: TEXT, kind: "text", source: column("content"), caseInsensitive: true },
  },
};

/**
 * An automation condition's attribute: the first model that knows the key wins, conversations
 * before contacts before messages, as ConditionsFilterService#apply_filter looks them up.
 */
export function automationAttribute(key: string): { model: FilterModel; spec: FilterAttribute } | undefined {
  for (const model of ["conversation", "contact", "message"] as const) {
    const spec = FILTER_ATTRIBUTES[model][key];
    if (spec) return { model, spec };
  }
  return undefined;
}

export type CustomAttributeModel = "conversation_attribute" | "contact_attribute";
export type CustomAttributeKind = "text" | "number" | "date" | "checkbox";

/** The operators a custom attribute accepts, by how it compares. */
export const CUSTOM_OPERATORS: Record<CustomAttributeKind, readonly FilterOperator[]> = {
  text: [...PRESENCE, "contains", "does_not_contain"],
  number: [...PRESENCE, "is_greater_than", "is_less_than"],
  date: [...PRESENCE, ...DATES],
  checkbox: EQUALITY,
};
export const CUSTOM_KINDS: Record<CustomAttributeKind, ValueKind> = { text: "text", number: "number", date: "date", checkbox: "boolean" };

/** How each display type compares (the casts of ConditionsFilterService#custom_attribute_query). */
export const KIND_OF_DISPLAY: Record<(typeof ATTRIBUTE_DISPLAY_TYPES)[number], CustomAttributeKind> = {
  text: "text",
  link: "text",
  list: "text",
  number: "number",
  currency: "number",
  percent: "number",
  date: "date",
  checkbox: "checkbox",
};

/** A custom attribute as a filter attribute of its model. */
export function customAttribute(key: string, kind: CustomAttributeKind): FilterAttribute {
  return { operators: CUSTOM_OPERATORS[kind], kind: CUSTOM_KINDS[kind], source: { custom: key } };
}
