import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { jsonObject } from "../../../http/schemas";
import { websiteTokenFields, widgetMessageFields } from "../../../schemas/widget";

export const widgetConversationCreate = z
  .object({
    ...websiteTokenFields,
    contact: z
      .object({
        name: z.string().trim().max(MAX_LENGTH.string).optional(),
        email: z.string().trim().max(MAX_LENGTH.string).nullable().optional(),
        phone_number: z.string().trim().max(MAX_LENGTH.string).nullable().optional(),
        custom_attributes: jsonObject().optional(),
      })
      .optional(),
    message: z.object(widgetMessageFields).default({}),
    custom_attributes: jsonObject().optional(),
  })
  .openapi("WidgetConversationCreate");

export const widgetTypingBody = z.object({ ...websiteTokenFields, typing_status: z.string().max(MAX_LENGTH.string).optional() }).openapi("WidgetTyping");

export const widgetConversationAttributesBody = z
  .object({ ...websiteTokenFields, custom_attributes: jsonObject().default({}) })
  .openapi("WidgetConversationAttributes");

/** conversations/index.json.jbuilder, or `{}` before the visitor's first message. */
export const widgetConversationResponse = z
  .object({ id: z.number(), inbox_id: z.number(), contact_last_seen_at: z.number(), status: z.string() })
  .partial()
  .openapi("WidgetConversation");

export const widgetConversationCreated = z
  .object({
    id: z.number(),
    inbox_id: z.number(),
    contact_last_seen_at: z.number(),
    status: z.string(),
    messages: z.array(jsonObject()),
    custom_attributes: jsonObject(),
    contact: z.object({ id: z.number(), name: z.string(), email: z.string().nullable(), phone_number: z.string().nullable() }),
  })
  .openapi("WidgetConversationCreated");
