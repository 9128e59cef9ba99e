import { z } from "zod";
import { MAX_LENGTH } from "../../http/limits";
import { uploadedFile } from "../../http/multipart";
import { echoId, id, jsonObject, optionalHttpUrl } from "../../http/schemas";
import { submittedValues } from "../../schemas/message";

const identifier = z.string().min(1).max(255);

export const inboxParams = z.object({ inbox_identifier: identifier });
export const contactParams = z.object({ inbox_identifier: identifier, contact_identifier: identifier });
export const conversationParams = contactParams.extend({ conversation_id: id() });
export const messageParams = conversationParams.extend({ message_id: id() });

/** What the contacts endpoints permit (Rails drops every other key); identifier_hash signs identifier. */
const contactFields = {
  identifier: z.string().trim().max(255),
  identifier_hash: z.string().max(255),
  name: z.string().trim().max(255),
  email: z.string().trim().max(255).nullable(),
  phone_number: z.string().trim().max(255).nullable(),
  avatar_url: optionalHttpUrl(),
  custom_attributes: jsonObject(),
};

export const publicContactCreate = z
  .object({ ...contactFields, source_id: z.string().trim().min(1).max(255) })
  .partial()
  .openapi("PublicContactCreate");
export const publicContactUpdate = z.object(contactFields).partial().openapi("PublicContactUpdate");
/** A GET carries the identity proof in its query string. */
export const identityQuery = z.object({ identifier: z.string().optional(), identifier_hash: z.string().optional() });

export const publicConversationCreate = z.object({ custom_attributes: jsonObject().optional() }).openapi("PublicConversationCreate");
/** Any other typing_status is accepted and ignored, as Chatwoot's case statement does. */
export const publicTypingBody = z.object({ typing_status: z.string().max(MAX_LENGTH.string).optional() }).openapi("PublicTyping");

export const publicMessageCreate = z
  .object({
    content: z.string().max(MAX_LENGTH.message).nullable().optional(),
    echo_id: echoId(),
    /** Files, sent as `attachments[]` parts of a multipart body. */
    attachments: z.array(uploadedFile()).optional(),
  })
  .openapi("PublicMessageCreate");
export const publicMessageUpdate = z
  .object({
    // Rails' permit takes one `{name, title, value}` hash as well as a list of them; `{}` is no answer.
    submitted_values: submittedValues().optional(),
  })
  .openapi("PublicMessageUpdate");
export const publicMessagesQuery = z.object({ before: id().optional() });

export const publicContactResponse = z
  .object({
    source_id: z.string(),
    pubsub_token: z.string().nullable(),
    id: z.number(),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
  })
  .openapi("PublicContact");

const workingHour = z.object({
  day_of_week: z.number().int(),
  closed_all_day: z.boolean(),
  open_hour: z.number().int().nullable(),
  open_minutes: z.number().int().nullable(),
  close_hour: z.number().int().nullable(),
  close_minutes: z.number().int().nullable(),
  open_all_day: z.boolean(),
});

export const publicInboxResponse = z
  .object({
    identifier: z.string(),
    identity_validation_enabled: z.boolean(),
    name: z.string(),
    timezone: z.string(),
    working_hours: z.array(workingHour),
    working_hours_enabled: z.boolean(),
    csat_survey_enabled: z.boolean(),
    csat_response_visible: z.boolean(),
    greeting_enabled: z.boolean(),
  })
  .openapi("PublicInbox");

export const contactRecordResponse = z.record(z.string(), z.unknown()).openapi("ContactRecord");

export const publicMessageResponse = z
  .object({
    id: z.number(),
    content: z.string().nullable(),
    message_type: z.number().int(),
    content_type: z.string(),
    content_attributes: jsonObject(),
    created_at: z.number(),
    conversation_id: z.number(),
    echo_id: z.string().optional(),
    attachments: z.array(jsonObject()).optional(),
    sender: jsonObject().optional(),
  })
  .openapi("PublicMessage");

export const publicConversationResponse = z
  .object({
    id: z.number(),
    uuid: z.string(),
    inbox_id: z.number(),
    contact_last_seen_at: z.number(),
    status: z.string(),
    agent_last_seen_at: z.number(),
    messages: z.array(publicMessageResponse),
    contact: contactRecordResponse,
  })
  .openapi("PublicConversation");
