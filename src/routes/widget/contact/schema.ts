import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { jsonObject, optionalHttpUrl } from "../../../http/schemas";
import { websiteTokenFields } from "../../../schemas/widget";

const text = () => z.string().trim().max(MAX_LENGTH.string);

/** What the widget's contact endpoints permit; the SDK's setUser identifier may be a number. */
export const widgetContactBody = z
  .object({
    ...websiteTokenFields,
    identifier: z.union([text(), z.number().transform(String)]).optional(),
    identifier_hash: z.string().max(MAX_LENGTH.string).optional(),
    name: text().optional(),
    email: text().nullable().optional(),
    phone_number: text().nullable().optional(),
    avatar_url: optionalHttpUrl(),
    custom_attributes: jsonObject().optional(),
    additional_attributes: jsonObject().optional(),
  })
  .openapi("WidgetContactUpdate");

export const widgetCustomAttributeKeysBody = z
  .object({ ...websiteTokenFields, custom_attributes: z.array(z.string().max(MAX_LENGTH.string)).max(1000).default([]) })
  .openapi("WidgetCustomAttributeKeys");

/** contacts/show.json.jbuilder: what the widget may know of its visitor without echoing personal data. */
export const widgetContactShowResponse = z
  .object({ id: z.number(), has_email: z.boolean(), has_name: z.boolean(), has_phone_number: z.boolean(), identifier: z.string().nullable() })
  .openapi("WidgetContact");

export const widgetContactResponse = z
  .object({
    id: z.number(),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    pubsub_token: z.string().nullable().optional(),
    widget_auth_token: z.string().optional(),
  })
  .openapi("WidgetContactUpdated");
