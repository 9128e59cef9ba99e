import { z } from "zod";
import { jsonObject } from "../http/schemas";

// An inbox as its own routes, contact inboxes and the widget config render it.

export const workingHourResponse = z.object({
  day_of_week: z.number(),
  closed_all_day: z.boolean(),
  open_hour: z.number().nullable(),
  open_minutes: z.number().nullable(),
  close_hour: z.number().nullable(),
  close_minutes: z.number().nullable(),
  open_all_day: z.boolean(),
});

export const inboxResponse = z
  .object({
    id: z.number(),
    avatar_url: z.string(),
    channel_id: z.number(),
    name: z.string(),
    channel_type: z.string(),
    greeting_enabled: z.boolean(),
    greeting_message: z.string().nullable(),
    working_hours_enabled: z.boolean(),
    enable_email_collect: z.boolean(),
    csat_survey_enabled: z.boolean(),
    csat_config: jsonObject(),
    enable_auto_assignment: z.boolean(),
    auto_assignment_config: jsonObject(),
    out_of_office_message: z.string().nullable(),
    working_hours: z.array(workingHourResponse),
    timezone: z.string(),
    callback_webhook_url: z.string().nullable(),
    allow_messages_after_resolved: z.boolean(),
    lock_to_single_conversation: z.boolean(),
    sender_name_type: z.string(),
    business_name: z.string().nullable(),
    allowed_domains: z.string().nullable(),
    widget_color: z.string().nullable(),
    website_url: z.string().nullable(),
    hmac_mandatory: z.boolean(),
    welcome_title: z.string().nullable(),
    welcome_tagline: z.string().nullable(),
    web_widget_script: z.string().nullable(),
    website_token: z.string().nullable(),
    selected_feature_flags: z.array(z.string()).nullable(),
    reply_time: z.string().nullable(),
    messaging_service_sid: z.string().nullable(),
    phone_number: z.string().nullable(),
    medium: z.string().nullable(),
    hmac_token: z.string().optional().describe("administrators only"),
    secret: z.string().optional().describe("API channel, administrators only"),
    webhook_url: z.string().nullable().optional(),
    inbox_identifier: z.string().optional(),
    additional_attributes: jsonObject().optional(),
    pre_chat_form_enabled: z.boolean().optional(),
    pre_chat_form_options: jsonObject().optional(),
    continuity_via_email: z.boolean().optional(),
    provider: z.string().nullable(),
  })
  .openapi("Inbox");
