import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { avatarUpload, clearableHttpUrl, id, jsonObject, railsBoolean, wrappedUnder } from "../../../http/schemas";

/** Feature flags a web widget may enable (Chatwoot's Channel::WebWidget feature_flags). */
export const WIDGET_FEATURE_FLAGS = ["attachments", "emoji_picker", "end_conversation", "use_inbox_avatar_for_bot"] as const;
export const DEFAULT_WIDGET_FEATURE_FLAGS = ["attachments", "emoji_picker", "end_conversation"];

const timezone = z
  .string()
  .max(MAX_LENGTH.string)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: "is not included in the list" },
  );

const hour = z.number().int().min(0).max(23).nullable();
const minutes = z.number().int().min(0).max(59).nullable();

const workingHour = z.object({
  day_of_week: z.number().int().min(0).max(6),
  closed_all_day: railsBoolean().default(false),
  open_hour: hour.default(null),
  open_minutes: minutes.default(null),
  close_hour: hour.default(null),
  close_minutes: minutes.default(null),
  open_all_day: railsBoolean().default(false),
});

/** Channel settings a request may set; each channel type keeps the ones that apply to it. */
const channelFields = {
  webhook_url: clearableHttpUrl(),
  additional_attributes: jsonObject(),
  website_url: z.string().trim().min(1).max(2048),
  widget_color: z
    .string()
    .max(MAX_LENGTH.string)
    .regex(/^#[0-9a-fA-F]{3,8}$/),
  welcome_title: z.string().max(255).nullable(),
  welcome_tagline: z.string().max(255).nullable(),
  reply_time: z.enum(["in_a_few_minutes", "in_a_few_hours", "in_a_day"]),
  hmac_mandatory: railsBoolean(),
  pre_chat_form_enabled: railsBoolean(),
  pre_chat_form_options: jsonObject(),
  continuity_via_email: railsBoolean(),
  selected_feature_flags: z.array(z.enum(WIDGET_FEATURE_FLAGS)),
  allowed_domains: z.string().max(MAX_LENGTH.text).nullable(),
};

export const API_CHANNEL_KEYS = ["webhook_url", "additional_attributes", "hmac_mandatory"] as const;
export const WIDGET_CHANNEL_KEYS = [
  "website_url",
  "widget_color",
  "welcome_title",
  "welcome_tagline",
  "reply_time",
  "hmac_mandatory",
  "pre_chat_form_enabled",
  "pre_chat_form_options",
  "continuity_via_email",
  "selected_feature_flags",
  "allowed_domains",
] as const;

const inboxFields = {
  name: z.string().trim().min(1).max(255),
  greeting_enabled: railsBoolean(),
  greeting_message: z.string().max(MAX_LENGTH.greeting).nullable(),
  enable_email_collect: railsBoolean(),
  csat_survey_enabled: railsBoolean(),
  csat_config: jsonObject(),
  enable_auto_assignment: railsBoolean(),
  auto_assignment_config: jsonObject(),
  working_hours_enabled: railsBoolean(),
  out_of_office_message: z.string().max(MAX_LENGTH.greeting).nullable(),
  timezone,
  allow_messages_after_resolved: railsBoolean(),
  lock_to_single_conversation: railsBoolean(),
  sender_name_type: z.enum(["friendly", "professional"]),
  business_name: z.string().max(255).nullable(),
  working_hours: z.array(workingHour).max(7),
  /** An image file, in a multipart body. */
  avatar: avatarUpload(),
};

export const inboxCreate = z
  .preprocess(
    wrappedUnder("inbox"),
    z
      .object({
        ...inboxFields,
        channel: z
          .object({ type: z.enum(["api", "web_widget"]), ...channelFields })
          .partial()
          .required({ type: true }),
      })
      .partial()
      .required({ name: true, channel: true })
      .superRefine((body, ctx) => {
        if (body.channel.type === "web_widget" && !body.channel.website_url) {
          ctx.addIssue({ code: "custom", path: ["channel", "website_url"], message: "can't be blank" });
        }
      }),
  )
  .openapi("InboxCreate");

export const inboxUpdate = z
  .preprocess(wrappedUnder("inbox"), z.object({ ...inboxFields, channel: z.object(channelFields).partial() }).partial())
  .openapi("InboxUpdate");

export const setAgentBotBody = z.object({ agent_bot: id().nullable().optional() }).openapi("SetAgentBot");

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

export const inboxesEnvelope = z.object({ payload: z.array(inboxResponse) }).openapi("Inboxes");
