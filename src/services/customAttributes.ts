import type { Knex } from "knex";
import { ValidationError, fullMessage, type AttributeError } from "../errors";
import { cachedPattern } from "../lib/linearRegex";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS, CustomAttributeDefinition } from "../models/CustomAttributeDefinition";

export type AttributeModel = (typeof ATTRIBUTE_MODELS)[number];
type DisplayType = (typeof ATTRIBUTE_DISPLAY_TYPES)[number];

const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}/;

/** Numbers arrive as JSON numbers or, from form inputs, as numeric strings. */
function isNumeric(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && NUMERIC_TEXT.test(value.trim());
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

function isDate(value: unknown): boolean {
  return typeof value === "string" && CALENDAR_DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/** Why a value does not fit its definition, as the text after the key; undefined when it fits. */
function problemWith(definition: CustomAttributeDefinition, value: unknown): string | undefined {
  const type: DisplayType = ATTRIBUTE_DISPLAY_TYPES[definition.attribute_display_type] ?? "text";
  switch (type) {
    case "text": {
      if (typeof value !== "string") return "must be a text";
      // A pattern saved before RE2 that it cannot run is not applied, as an uncompilable one never was.
      const pattern = definition.regex_pattern ? cachedPattern(definition.regex_pattern) : undefined;
      if (pattern?.ok && !pattern.regex.test(value)) return definition.regex_cue || `does not match the pattern ${definition.regex_pattern}`;
      return undefined;
    }
    case "number":
    case "currency":
    case "percent":
      return isNumeric(value) ? undefined : "must be a number";
    case "link":
      return isHttpUrl(value) ? undefined : "must be a valid http(s) link";
    case "date":
      return isDate(value) ? undefined : "must be a date (YYYY-MM-DD or ISO 8601)";
    case "checkbox":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "list":
      return typeof value === "string" && definition.attribute_values.includes(value) ? undefined : `must be one of: ${definition.attribute_values.join(", ")}`;
  }
}

/**
 * Checks custom_attributes against the account's definitions for the model, going beyond Chatwoot
 * (which accepts any JSON) for the keys that have one: their values must fit the display type, list
 * values and regex. Keys without a definition are stored as sent, as Chatwoot stores them
 * (integrations such as WAHA keep their own keys there). All problems are reported together in one
 * 422; callers check before writing, so nothing is saved when any key fails. A null value clears
 * the attribute and is always accepted.
 */
export async function validateCustomAttributes(db: Knex, accountId: number, model: AttributeModel, attributes: Record<string, unknown>): Promise<void> {
  const keys = Object.keys(attributes);
  if (keys.length === 0) return;
  const definitions = await CustomAttributeDefinition.query(db)
    .where({ account_id: accountId, attribute_model: ATTRIBUTE_MODELS.indexOf(model) })
    .whereIn("attribute_key", keys);
  const byKey = new Map(definitions.map((d) => [d.attribute_key, d]));

  const errors: AttributeError[] = [];
  for (const key of keys) {
    const definition = byKey.get(key);
    const value = attributes[key];
    const problem = !definition || value === null ? undefined : problemWith(definition, value);
    if (problem) errors.push({ attribute: "custom_attributes", message: fullMessage("custom_attributes", `${key} ${problem}`) });
  }
  if (errors.length) throw new ValidationError(errors);
}
