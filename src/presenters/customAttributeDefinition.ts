import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS, type CustomAttributeDefinition } from "../models/CustomAttributeDefinition";
import { iso } from "./time";

/** app/views/api/v1/accounts/custom_attribute_definitions/_custom_attribute_definition.json.jbuilder */
export function presentCustomAttributeDefinition(definition: CustomAttributeDefinition) {
  return {
    id: definition.id,
    attribute_display_name: definition.attribute_display_name,
    attribute_display_type: ATTRIBUTE_DISPLAY_TYPES[definition.attribute_display_type]!,
    attribute_description: definition.attribute_description,
    attribute_key: definition.attribute_key,
    regex_pattern: definition.regex_pattern,
    regex_cue: definition.regex_cue,
    attribute_values: definition.attribute_values,
    attribute_model: ATTRIBUTE_MODELS[definition.attribute_model]!,
    default_value: definition.default_value,
    created_at: iso(definition.created_at)!,
    updated_at: iso(definition.updated_at)!,
  };
}
