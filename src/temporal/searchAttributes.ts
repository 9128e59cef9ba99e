import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";

/**
 * Custom search attributes that let an operator find workflows in the Temporal UI
 * (e.g. `AccountId = 12`). They hold ids only, never personal data. The dev server gets them from
 * devServerSearchAttributeFlags; docker-compose.yml's temporal-setup job registers the same list.
 */
export const AccountIdAttribute = defineSearchAttributeKey("AccountId", SearchAttributeType.INT);

export const ConversationIdAttribute = defineSearchAttributeKey("ConversationId", SearchAttributeType.INT);
export const WebhookIdAttribute = defineSearchAttributeKey("WebhookId", SearchAttributeType.INT);
export const EventNameAttribute = defineSearchAttributeKey("EventName", SearchAttributeType.KEYWORD);
/** When an open conversation will auto-resolve (or a snoozed one reopen), for "due soon" queries. */
export const AutoResolveAtAttribute = defineSearchAttributeKey("AutoResolveAt", SearchAttributeType.DATETIME);

export const SEARCH_ATTRIBUTES = [AccountIdAttribute, ConversationIdAttribute, WebhookIdAttribute, EventNameAttribute, AutoResolveAtAttribute];

const CLI_TYPE_NAMES: Record<string, string> = {
  [SearchAttributeType.INT]: "Int",
  [SearchAttributeType.KEYWORD]: "Keyword",
  [SearchAttributeType.TEXT]: "Text",
  [SearchAttributeType.DOUBLE]: "Double",
  [SearchAttributeType.BOOL]: "Bool",
  [SearchAttributeType.DATETIME]: "Datetime",
  [SearchAttributeType.KEYWORD_LIST]: "KeywordList",
};

/** `--search-attribute Name=Type` flags that register the attributes on a dev server. */
export function devServerSearchAttributeFlags(): string[] {
  return SEARCH_ATTRIBUTES.flatMap((key) => ["--search-attribute", `${key.name}=${CLI_TYPE_NAMES[key.type]}`]);
}

/**
 * Scheduling: an appointment's workflow, found by its resource, its id and when it starts. The ids
 * are keywords (`AppointmentId = "57"`): SQL visibility stores at most three Int attributes, all taken.
 */
export const ResourceIdAttribute = defineSearchAttributeKey("ResourceId", SearchAttributeType.KEYWORD);
export const AppointmentIdAttribute = defineSearchAttributeKey("AppointmentId", SearchAttributeType.KEYWORD);
export const AppointmentStartsAtAttribute = defineSearchAttributeKey("AppointmentStartsAt", SearchAttributeType.DATETIME);
SEARCH_ATTRIBUTES.push(ResourceIdAttribute, AppointmentIdAttribute, AppointmentStartsAtAttribute);
