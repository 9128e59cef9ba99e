import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { avatarUpload, clearableHttpUrl, id, jsonObject, railsBoolean, wrappedUnder } from "../../../http/schemas";
import { inboxResponse } from "../../../schemas/inbox";

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

export const inboxesEnvelope = z.object({ payload: z.array(inboxResponse) }).openapi("Inboxes");
