import type { Knex } from "knex";
import { ValidationError, fullMessage, type AttributeError } from "../errors";
import { BaseModel } from "./BaseModel";

/** Request codes are the index in these lists; responses use the names. */
export const ATTRIBUTE_DISPLAY_TYPES = ["text", "number", "currency", "percent", "link", "date", "list", "checkbox"] as const;
export const ATTRIBUTE_MODELS = ["conversation_attribute", "contact_attribute"] as const;

/** Standard attributes of each model; a custom key may not shadow them. */
export const RESERVED_KEYS: Record<(typeof ATTRIBUTE_MODELS)[number], readonly string[]> = {
  conversation_attribute: [
    "status",
    "priority",
    "assignee_id",
    "inbox_id",
    "team_id",
    "display_id",
    "campaign_id",
    "labels",
    "browser_language",
    "country_code",
    "referer",
    "created_at",
    "last_activity_at",
  ],
  contact_attribute: [
    "name",
    "email",
    "phone_number",
    "identifier",
    "country_code",
    "city",
    "company_name",
    "created_at",
    "last_activity_at",
    "referer",
    "blocked",
  ],
};

const KEY_FORMAT = /^[\p{L}\p{N}_.-]+$/u;

export class CustomAttributeDefinition extends BaseModel {
  static tableName = "custom_attribute_definitions";
  static jsonAttributes = ["attribute_values"];

  declare account_id: number;
  declare attribute_display_name: string;
  declare attribute_key: string;
  declare attribute_display_type: number;
  declare attribute_model: number;
  declare attribute_description: string | null;
  declare attribute_values: string[];
  declare regex_pattern: string | null;
  declare regex_cue: string | null;
  declare default_value: number | null;

  static ofAccount(accountId: number, db?: Knex) {
    return CustomAttributeDefinition.query(db).where("account_id", accountId).orderBy("id");
  }

  /**
   * Chatwoot's validations on the definition as it would be saved: display name and key present,
   * key format, key unique per account and model, and (on create) not a standard attribute.
   */
  static async validate(
    db: Knex,
    definition: Partial<CustomAttributeDefinition> & { account_id: number },
    existing?: CustomAttributeDefinition,
  ): Promise<void> {
    const errors: AttributeError[] = [];
    const add = (attribute: string, text: string) => errors.push({ attribute, message: fullMessage(attribute, text) });
    const key = definition.attribute_key ?? "";
    const model = definition.attribute_model ?? 0;

    if (!definition.attribute_display_name) add("attribute_display_name", "can't be blank");
    if (!key) add("attribute_key", "can't be blank");
    else if (!KEY_FORMAT.test(key)) add("attribute_key", "must only contain letters, numbers, underscores, hyphens, and dots");
    else {
      const taken = await CustomAttributeDefinition.query(db)
        .findOne({ account_id: definition.account_id, attribute_key: key, attribute_model: model })
        .whereNot("id", existing?.id ?? 0);
      if (taken) add("attribute_key", "has already been taken");
      if (!existing && RESERVED_KEYS[ATTRIBUTE_MODELS[model]!].includes(key)) {
        add("attribute_key", "The provided key is not allowed as it might conflict with default attributes.");
      }
    }
    if (errors.length) throw new ValidationError(errors);
  }
}
