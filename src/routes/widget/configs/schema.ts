import { z } from "zod";
import { websiteTokenFields } from "../../../schemas/widget";
import { workingHourResponse } from "../../../schemas/inbox";

export const widgetConfigBody = z.object(websiteTokenFields).openapi("WidgetConfigRequest");

/** app/views/api/v1/widget/configs/create.json.jbuilder, the keys this service can fill. */
export const widgetConfigResponse = z
  .object({
    website_channel_config: z.object({
      account_id: z.number(),
      allow_messages_after_resolved: z.boolean(),
      api_host: z.string().nullable(),
      auth_token: z.string(),
      avatar_url: z.string().nullable(),
      csat_survey_enabled: z.boolean(),
      disable_branding: z.boolean(),
      enabled_features: z.array(z.string()),
      locale: z.string(),
      out_of_office_message: z.string().nullable(),
      portal: z.null(),
      pre_chat_form_enabled: z.boolean(),
      pre_chat_form_options: z.record(z.string(), z.unknown()),
      reply_time: z.string(),
      timezone: z.string(),
      utc_off_set: z.string(),
      website_name: z.string(),
      website_token: z.string(),
      welcome_tagline: z.string().nullable(),
      welcome_title: z.string().nullable(),
      widget_color: z.string(),
      working_hours: z.array(workingHourResponse),
      working_hours_enabled: z.boolean(),
    }),
    contact: z.object({
      id: z.number(),
      name: z.string(),
      email: z.string().nullable(),
      phone_number: z.string().nullable(),
      identifier: z.string().nullable(),
      pubsub_token: z.string().nullable(),
    }),
    auth_token: z.string(),
  })
  .openapi("WidgetConfig");
