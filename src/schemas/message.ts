import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";
import { uploadedFile } from "../http/multipart";
import { echoId, id, jsonObject, optionalId, railsBoolean, withinJsonLimits } from "../http/schemas";
import { CONTENT_TYPES, MESSAGE_STATUSES, MESSAGE_TYPES } from "../models/Message";

// A message as its own routes take and render it, and as a new conversation carries it.

/** content_attributes may arrive as a JSON string (MessageBuilder parses it). */
const contentAttributes = z.preprocess((value) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}, jsonObject());

/** An empty `{}` (a form's default) is no template, as Chatwoot ignores it. */
const templateParams = z.preprocess(
  (value) => (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0 ? null : value),
  withinJsonLimits(
    z
      .object({
        name: z.string().max(MAX_LENGTH.string),
        category: z.string().max(MAX_LENGTH.string).optional(),
        language: z.string().max(MAX_LENGTH.string).optional(),
        processed_params: z
          .object({
            body: z.record(z.string(), z.string().max(MAX_LENGTH.text)).optional(),
            header: z
              .object({ media_url: z.string().max(MAX_LENGTH.url).optional(), media_type: z.string().max(MAX_LENGTH.string).optional() })
              .loose()
              .optional(),
            buttons: z.array(z.object({ type: z.string().max(MAX_LENGTH.string), parameter: z.string().max(MAX_LENGTH.string) }).loose()).optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  ).nullable(),
);

/**
 * The message_type and content_type names are checked by the message service, which answers as
 * Chatwoot does for an unknown enum name; the schema only documents them.
 */
export const messageBody = z
  .object({
    content: z.string().max(MAX_LENGTH.message).nullable().optional(),
    message_type: z
      .string()
      .optional()
      .openapi({ enum: [...MESSAGE_TYPES] }),
    private: railsBoolean().optional(),
    content_type: z
      .string()
      .optional()
      .openapi({ enum: [...CONTENT_TYPES] }),
    content_attributes: contentAttributes.optional(),
    campaign_id: optionalId().optional(),
    // Loose: the keys it does not name are kept as sent, within the free-form limits.
    template_params: templateParams.optional(),
    source_id: z.string().max(255).nullable().optional(),
    echo_id: echoId(),
    sender_type: z.string().max(MAX_LENGTH.string).optional(),
    sender_id: id().optional(),
    /** Files, sent as `attachments[]` parts of a multipart body. */
    attachments: z.array(uploadedFile()).optional(),
  })
  .openapi("MessageCreate");

export const messageResponse = z
  .object({
    id: z.number(),
    content: z.string().nullable(),
    account_id: z.number(),
    inbox_id: z.number(),
    conversation_id: z.number(),
    message_type: z.number().int().openapi({ description: "0 incoming, 1 outgoing, 2 activity, 3 template" }),
    created_at: z.number(),
    updated_at: z.string().nullable(),
    private: z.boolean(),
    status: z.enum(MESSAGE_STATUSES),
    source_id: z.string().nullable(),
    content_type: z.enum(CONTENT_TYPES),
    content_attributes: z.record(z.string(), z.unknown()),
    sender_type: z.string().nullable(),
    sender_id: z.number().nullable(),
    external_source_ids: z.record(z.string(), z.unknown()),
    additional_attributes: z.record(z.string(), z.unknown()),
    processed_message_content: z.string().nullable(),
    sentiment: z.record(z.string(), z.unknown()),
    conversation: z.object({
      assignee_id: z.number().nullable(),
      unread_count: z.number(),
      last_activity_at: z.number(),
      contact_inbox: z.object({ source_id: z.string().nullable() }),
    }),
    echo_id: z.string().optional().openapi({ description: "The create request's echo_id, when it gave one" }),
    sender: z.record(z.string(), z.unknown()).optional(),
    attachments: z
      .array(
        z.object({
          id: z.number(),
          message_id: z.number(),
          file_type: z.string(),
          account_id: z.number(),
          extension: z.string().nullable(),
          content_type: z.string(),
          data_url: z.string(),
          thumb_url: z.string(),
          file_size: z.number(),
          width: z.number().nullable(),
          height: z.number().nullable(),
        }),
      )
      .optional(),
  })
  .openapi("Message");

/** A contact's answers to a form or choice message; Rails' permit takes one `{name, title, value}` hash as well as a list of them, and `{}` is no answer. */
export const submittedValues = () =>
  z.preprocess(
    (value) => (value && typeof value === "object" && !Array.isArray(value) ? (Object.keys(value).length ? [value] : []) : value),
    withinJsonLimits(z.array(z.looseObject({ name: z.unknown().optional(), title: z.unknown().optional(), value: z.unknown().optional() }))),
  );
