import type { Knex } from "knex";
import { ApiError } from "../../errors";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS, CustomAttributeDefinition } from "../../models/CustomAttributeDefinition";
import { CONVERSATION_STATUSES } from "../../models/Conversation";
import { customAttribute, type CustomAttributeKind, FILTER_ATTRIBUTES, type FilterAttribute, KIND_OF_DISPLAY, PRESENCE_OPERATORS } from "./attributes";

/**
 * Chatwoot's contacts/filter and conversations/filter (FilterService and Filters::FilterHelper):
 * the payload's conditions, checked against the shared vocabulary, become one SQL condition with
 * bound values. As in Chatwoot, each condition's query_operator joins it to the next and no
 * parentheses are added, so AND binds tighter than OR (the automation evaluator reads them alike).
 */

export type FilterTarget = "contact" | "conversation";

export interface FilterCondition {
  attribute_key: string;
  filter_operator: string;
  values?: unknown;
  query_operator?: string | null;
  custom_attribute_type?: string | null;
}

const TABLES: Record<FilterTarget, string> = { contact: "contacts", conversation: "conversations" };

/** CustomExceptions::CustomFilter, in the words of Chatwoot's config/locales/en.yml. */
const InvalidAttribute = (key: string, allowed: string[]) =>
  new ApiError(422, {
    error: `Invalid attribute key - [${key}]. The key should be one of [${allowed.join(",")}] or a custom attribute defined in the account.`,
  });
const InvalidOperator = (key: string, allowed: readonly string[]) =>
  new ApiError(422, { error: `Invalid operator. The allowed operators for ${key} are [${allowed.join(",")}].` });
const InvalidQueryOperator = () => new ApiError(422, { error: 'Query operator must be either "AND" or "OR".' });
const InvalidValue = (key: string) => new ApiError(422, { error: `Invalid value. The values provided for ${key} are invalid` });

interface Fragment {
  sql: string;
  bindings: unknown[];
}

/** The condition's values as a list; Chatwoot clients also send a bare value, or `{id, name}` options from its UI. */
function valuesOf(condition: FilterCondition): unknown[] {
  const raw = condition.values;
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null || raw === "" ? [] : [raw];
  return list
    .map((value) => (value && typeof value === "object" && "id" in value ? (value as { id: unknown }).id : value))
    .filter((value) => value !== null && value !== "");
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Contacts::FilterService keeps phone numbers in E.164: a value sent without its "+" gets one. */
const phoneValue = (value: string) => `+${value.trim().replace(/^\+/, "")}`;

const DAY_MS = 86_400_000;

/** A stored text as a number or a time, NULL when it is not one, so a stray value never fails the query. */
// No "?" in these patterns: knex would read it as a placeholder.
const numericOf = (expr: string) => `(CASE WHEN (${expr}) ~ '^\\s*-{0,1}[0-9]+(\\.[0-9]+){0,1}\\s*$' THEN (${expr})::numeric END)`;
const timeOf = (expr: string) =>
  `(CASE WHEN (${expr}) ~ '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+){0,1}){0,1}){0,1}(Z|[+-]\\d{2}(:{0,1}\\d{2}){0,1}){0,1}$' THEN (${expr})::timestamptz END)`;

class ConditionBuilder {
  constructor(
    private readonly table: string,
    private readonly target: FilterTarget,
  ) {}

  /** The SQL expression of the attribute's value: a column, or a key of a jsonb column as text. */
  private expression(spec: FilterAttribute): Fragment {
    const { source } = spec;
    if ("column" in source) return { sql: "??", bindings: [`${this.table}.${source.column}`] };
    const json = "additional" in source ? "additional_attributes" : "custom_attributes";
    return { sql: `(??->>?)`, bindings: [`${this.table}.${json}`, "additional" in source ? source.additional : source.custom] };
  }

  build(condition: FilterCondition, spec: FilterAttribute): Fragment {
    const key = condition.attribute_key;
    const operator = condition.filter_operator;
    const { sql: raw, bindings } = this.expression(spec);
    const isColumn = "column" in spec.source;
    // Every use of the expression ({x}) repeats its bindings; `at` places them where it appears.
    const at = (template: string, ...values: unknown[]): Fragment => {
      const parts = template.split("{x}");
      const out: unknown[] = [];
      let sql = parts[0]!;
      for (let i = 1; i < parts.length; i++) {
        out.push(...bindings);
        sql += raw + parts[i];
      }
      return { sql, bindings: [...out, ...values] };
    };

    if (spec.kind === "labels") {
      const labels = valuesOf(condition).map(String);
      if (operator === "is_present") return at("cardinality({x}) > 0");
      if (operator === "is_not_present") return at("cardinality({x}) = 0");
      return at(operator === "equal_to" ? "({x} && ?::text[])" : "NOT ({x} && ?::text[])", labels);
    }
    if (operator === "is_present") return at("NULLIF(({x})::text, '') IS NOT NULL");
    if (operator === "is_not_present") return at("NULLIF(({x})::text, '') IS NULL");

    const values = valuesOf(condition);
    switch (spec.kind) {
      case "text": {
        let texts = values.map(String);
        if (key === "status" && this.target === "conversation" && texts.includes("all")) texts = [...CONVERSATION_STATUSES];
        if (key === "phone_number" && this.target === "contact" && operator !== "contains" && operator !== "does_not_contain") texts = texts.map(phoneValue);
        switch (operator) {
          case "equal_to":
            return at(
              "LOWER({x}) = ANY(?::text[])",
              texts.map((t) => t.toLowerCase()),
            );
          case "not_equal_to":
            return at(
              "LOWER({x}) <> ALL(?::text[])",
              texts.map((t) => t.toLowerCase()),
            );
          case "contains":
            return at(
              "{x} ILIKE ANY(?::text[])",
              texts.map((t) => `%${escapeLike(t.trim())}%`),
            );
          case "does_not_contain":
            return at(
              "{x} NOT ILIKE ALL(?::text[])",
              texts.map((t) => `%${escapeLike(t.trim())}%`),
            );
          case "starts_with":
            return at(
              "{x} LIKE ANY(?::text[])",
              texts.map((t) => `${escapeLike(t)}%`),
            );
        }
        break;
      }
      case "id":
      case "number": {
        const numbers = values.map((v) => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN));
        if (numbers.some((n) => !Number.isFinite(n))) throw InvalidValue(key);
        const expr = isColumn ? "{x}" : numericOf("{x}");
        if (operator === "equal_to") return at(`${expr} = ANY(?::numeric[])`, numbers);
        if (operator === "not_equal_to") return at(`${expr} <> ALL(?::numeric[])`, numbers);
        if (operator === "is_greater_than") return at(`${expr} > ?`, numbers[0]);
        if (operator === "is_less_than") return at(`${expr} < ?`, numbers[0]);
        break;
      }
      case "boolean": {
        const booleans = values.map((v) => (v === true || v === "true" ? "true" : v === false || v === "false" ? "false" : undefined));
        if (booleans.includes(undefined)) throw InvalidValue(key);
        return at(operator === "equal_to" ? "({x})::text = ANY(?::text[])" : "({x})::text <> ALL(?::text[])", booleans);
      }
      case "date": {
        const expr = isColumn ? "{x}" : timeOf("{x}");
        if (operator === "days_before") {
          const days = Number(values[0]);
          if (!Number.isFinite(days)) throw InvalidValue(key);
          const now = new Date();
          const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
          return at(`${expr} < ?`, new Date(startOfToday - days * DAY_MS));
        }
        const times = values.map((v) => new Date(String(v)));
        if (times.some((d) => Number.isNaN(d.getTime()))) throw InvalidValue(key);
        if (operator === "is_greater_than") return at(`${expr} > ?`, times[0]);
        if (operator === "is_less_than") return at(`${expr} < ?`, times[0]);
        if (operator === "equal_to") return at(`${expr} = ANY(?::timestamptz[])`, times);
        if (operator === "not_equal_to") return at(`${expr} <> ALL(?::timestamptz[])`, times);
        break;
      }
    }
    throw InvalidOperator(key, spec.operators);
  }
}

async function customAttributeKinds(db: Knex, accountId: number, target: FilterTarget): Promise<Map<string, CustomAttributeKind>> {
  const model = ATTRIBUTE_MODELS.indexOf(target === "contact" ? "contact_attribute" : "conversation_attribute");
  const definitions = await CustomAttributeDefinition.query(db).where({ account_id: accountId, attribute_model: model });
  return new Map(definitions.map((d) => [d.attribute_key, KIND_OF_DISPLAY[ATTRIBUTE_DISPLAY_TYPES[d.attribute_display_type]!]]));
}

/**
 * The payload as one SQL condition on the target's table, or Chatwoot's 422 for the first thing
 * wrong with it: a query_operator other than AND/OR, an operator the attribute does not take, no
 * values where some are needed, or an attribute that is neither standard nor a custom attribute
 * defined in the account for that model.
 */
export async function filterCondition(db: Knex, accountId: number, target: FilterTarget, conditions: FilterCondition[]): Promise<Fragment> {
  const joins = conditions.map((condition) => (condition.query_operator ?? "").trim().toUpperCase());
  if (joins.some((join) => join !== "" && join !== "AND" && join !== "OR")) throw InvalidQueryOperator();

  const standard = FILTER_ATTRIBUTES[target];
  const custom = await customAttributeKinds(db, accountId, target);
  const builder = new ConditionBuilder(TABLES[target], target);
  let sql = "";
  const bindings: unknown[] = [];
  conditions.forEach((condition, index) => {
    const key = condition.attribute_key;
    const known = standard[key];
    const operators: readonly string[] | undefined = known?.operators;
    if (operators && !operators.includes(condition.filter_operator)) throw InvalidOperator(key, operators);
    if (!PRESENCE_OPERATORS.includes(condition.filter_operator) && !valuesOf(condition).length) throw InvalidValue(key);
    const kind = custom.get(key);
    const spec = known ?? (kind && customAttribute(key, kind));
    if (!spec) throw InvalidAttribute(key, Object.keys(standard));
    if (!(spec.operators as readonly string[]).includes(condition.filter_operator)) throw InvalidOperator(key, spec.operators);
    const fragment = builder.build(condition, spec);
    // A missing operator between two conditions reads as AND; the last condition's is ignored.
    sql += `${index ? ` ${joins[index - 1] || "AND"} ` : ""}${fragment.sql}`;
    bindings.push(...fragment.bindings);
  });
  return { sql: `(${sql})`, bindings };
}
