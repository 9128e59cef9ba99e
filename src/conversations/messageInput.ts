import type { StagedAttachment } from "../services/attachments";
import { CouldNotProcess } from "../errors";
import { CONTENT_TYPES, type ContentType, MESSAGE_TYPES } from "../models/Message";

/** A message as a request (or a caller inside the service) describes it; names are checked here. */
export interface MessageInput {
  content?: string | null;
  message_type?: string;
  private?: boolean;
  content_type?: string;
  content_attributes?: Record<string, unknown>;
  campaign_id?: number | null;
  template_params?: Record<string, unknown> | null;
  source_id?: string | null;
  /**
   * The client's temporary id for its optimistic copy of the message: not stored (Chatwoot's
   * attr_accessor), only echoed in the create response and the message_created event.
   */
  echo_id?: string | null;
  /** Files already in storage (withStagedAttachments); a message with files needs no text. */
  attachments?: StagedAttachment[];
}

const CONTENT_MAX = 150_000;

/** Item keys ContentAttributeValidator allows for each structured content type. */
const ITEM_KEYS: Partial<Record<ContentType, readonly string[]>> = {
  input_select: ["title", "value"],
  cards: ["title", "description", "media_url", "actions"],
  form: ["type", "placeholder", "label", "name", "options", "default", "required", "pattern", "title", "pattern_error"],
  article: ["title", "description", "link"],
};
const CARD_ACTION_KEYS = ["text", "type", "payload", "uri"];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const rubyList = (keys: string[]) => `[${keys.map((key) => `:${key}`).join(", ")}]`;

/** ContentAttributeValidator, in its words (the `Content attributes ...` full messages). */
function contentAttributeProblems(contentType: ContentType, attributes: Record<string, unknown>): string[] {
  const allowed = ITEM_KEYS[contentType];
  if (!allowed) return [];
  const items = Array.isArray(attributes.items) ? attributes.items : [];
  if (!items.length) return ["Content attributes At least one item is required."];
  if (items.some((item) => !isObject(item))) return ["Content attributes Items should be a hash."];
  const objects = items as Record<string, unknown>[];
  const problems: string[] = [];
  const invalid = [...new Set(objects.flatMap(Object.keys).filter((key) => !allowed.includes(key)))];
  if (invalid.length) problems.push(`Content attributes contains invalid keys for items : ${rubyList(invalid)}`);
  if (contentType === "cards") {
    if (objects.some((item) => !Array.isArray(item.actions) || !item.actions.length)) {
      problems.push("Content attributes contains items missing actions");
    } else {
      const actionKeys = objects.flatMap((item) => (item.actions as unknown[]).flatMap((action) => (isObject(action) ? Object.keys(action) : [])));
      const invalidActions = [...new Set(actionKeys.filter((key) => !CARD_ACTION_KEYS.includes(key)))];
      if (invalidActions.length) problems.push(`Content attributes contains invalid keys for actions:  ${rubyList(invalidActions)}`);
    }
  }
  return problems;
}

export interface ValidMessage {
  messageType: number;
  contentType: ContentType;
  content: string | null;
  contentAttributes: Record<string, unknown>;
  additionalAttributes: Record<string, unknown>;
}

/**
 * MessageBuilder + Message validations. Chatwoot's messages controller answers every failure with
 * 422 {"error": message}, so these do too; unknown enum names read as Rails' ArgumentError.
 */
export function validateMessage(input: MessageInput): ValidMessage {
  const typeName = input.message_type ?? "outgoing";
  const messageType = (MESSAGE_TYPES as readonly string[]).indexOf(typeName);
  if (messageType < 0) throw CouldNotProcess(`'${typeName}' is not a valid message_type`);
  const contentType = (input.content_type ?? "text") as ContentType;
  if (!CONTENT_TYPES.includes(contentType)) throw CouldNotProcess(`'${contentType}' is not a valid content_type`);

  const hasFiles = Boolean(input.attachments?.length);
  const content = input.content ?? (hasFiles ? null : "");
  const contentAttributes = input.content_attributes ?? {};
  const problems: string[] = [];
  if (!hasFiles && !content?.trim()) problems.push("Content can't be blank");
  if (content && content.length > CONTENT_MAX) problems.push(`Content is too long (maximum is ${CONTENT_MAX} characters)`);
  problems.push(...contentAttributeProblems(contentType, contentAttributes));
  if (problems.length) throw CouldNotProcess(`Validation failed: ${problems.join(", ")}`);

  const additionalAttributes: Record<string, unknown> = {
    ...(input.campaign_id != null ? { campaign_id: input.campaign_id } : {}),
    ...(input.template_params ? { template_params: input.template_params } : {}),
  };
  return { messageType, contentType, content, contentAttributes, additionalAttributes };
}
