import type { Channel, Inbox } from "../models/Inbox";
import type { AgentInvitation } from "../models/AgentInvitation";
import type { Member } from "../models/InboxMember";
import type { User } from "../models/User";
import { ChannelApi } from "../models/ChannelApi";
import { ChannelWebWidget } from "../models/ChannelWebWidget";
import { iso } from "./time";
import { avatarUrlOf } from "../services/avatars";
import { appSettings, publicBaseUrl } from "../config";

/** Keys only some channels have; present on every inbox, null where they do not apply, as Chatwoot renders them. */
function widgetFields(channel: Channel) {
  const widget = channel instanceof ChannelWebWidget ? channel : undefined;
  return {
    allowed_domains: widget?.allowed_domains ?? null,
    widget_color: widget?.widget_color ?? null,
    website_url: widget?.website_url ?? null,
    hmac_mandatory: channel.hmac_mandatory,
    welcome_title: widget?.welcome_title ?? null,
    welcome_tagline: widget?.welcome_tagline ?? null,
    web_widget_script: widget ? widget.webWidgetScript(publicBaseUrl(appSettings())) : null,
    website_token: widget?.website_token ?? null,
    selected_feature_flags: widget?.selected_feature_flags ?? null,
    reply_time: widget?.reply_time ?? null,
    messaging_service_sid: null,
    phone_number: null,
    medium: null,
  };
}

function channelFields(channel: Channel, administrator: boolean) {
  if (channel instanceof ChannelApi) {
    return {
      ...(administrator ? { hmac_token: channel.hmac_token, secret: channel.secret } : {}),
      webhook_url: channel.webhook_url,
      inbox_identifier: channel.identifier,
      additional_attributes: channel.additional_attributes,
    };
  }
  return {
    ...(administrator ? { hmac_token: channel.hmac_token } : {}),
    pre_chat_form_enabled: channel.pre_chat_form_enabled,
    pre_chat_form_options: channel.pre_chat_form_options,
    continuity_via_email: channel.continuity_via_email,
  };
}

/** app/views/api/v1/models/_inbox.json.jbuilder; channel secrets only for administrators. */
export function presentInbox(inbox: Inbox, channel: Channel, { administrator }: { administrator: boolean }) {
  return {
    id: inbox.id,
    avatar_url: avatarUrlOf(inbox),
    channel_id: inbox.channel_id,
    name: inbox.name,
    channel_type: inbox.channel_type,
    greeting_enabled: inbox.greeting_enabled,
    greeting_message: inbox.greeting_message,
    working_hours_enabled: inbox.working_hours_enabled,
    enable_email_collect: inbox.enable_email_collect,
    csat_survey_enabled: inbox.csat_survey_enabled,
    csat_config: inbox.csat_config,
    enable_auto_assignment: inbox.enable_auto_assignment,
    auto_assignment_config: inbox.auto_assignment_config,
    out_of_office_message: inbox.out_of_office_message,
    working_hours: inbox.working_hours,
    timezone: inbox.timezone,
    callback_webhook_url: null,
    allow_messages_after_resolved: inbox.allow_messages_after_resolved,
    lock_to_single_conversation: inbox.lock_to_single_conversation,
    sender_name_type: inbox.sender_name_type,
    business_name: inbox.business_name,
    ...widgetFields(channel),
    ...channelFields(channel, administrator),
    provider: null,
  };
}

/** app/views/api/v1/models/_inbox_slim.json.jbuilder, used inside contacts' contact_inboxes. */
export function presentInboxSlim(inbox: Pick<Inbox, "id" | "avatar_url" | "channel_id" | "name" | "channel_type">) {
  return {
    id: inbox.id,
    avatar_url: avatarUrlOf(inbox),
    channel_id: inbox.channel_id,
    name: inbox.name,
    channel_type: inbox.channel_type,
    provider: null,
  };
}

/** The inbox row as Rails' as_json renders a record (contacts#create's contact_inbox.inbox). */
export function inboxRecord(inbox: Inbox) {
  return {
    id: inbox.id,
    channel_id: inbox.channel_id,
    account_id: inbox.account_id,
    name: inbox.name,
    created_at: iso(inbox.created_at),
    updated_at: iso(inbox.updated_at),
    channel_type: inbox.channel_type,
    enable_auto_assignment: inbox.enable_auto_assignment,
    greeting_enabled: inbox.greeting_enabled,
    greeting_message: inbox.greeting_message,
    enable_email_collect: inbox.enable_email_collect,
    csat_survey_enabled: inbox.csat_survey_enabled,
    allow_messages_after_resolved: inbox.allow_messages_after_resolved,
    auto_assignment_config: inbox.auto_assignment_config,
    lock_to_single_conversation: inbox.lock_to_single_conversation,
    sender_name_type: inbox.sender_name_type,
    business_name: inbox.business_name,
    timezone: inbox.timezone,
    working_hours_enabled: inbox.working_hours_enabled,
    out_of_office_message: inbox.out_of_office_message,
  };
}

/** app/views/api/v1/models/_agent.json.jbuilder: an inbox member as an agent of the account. */
export function presentInboxMember({ user, accountUser }: Member) {
  return {
    id: user.id,
    account_id: accountUser.account_id,
    availability_status: accountUser.availability,
    auto_offline: accountUser.auto_offline,
    confirmed: Boolean(user.confirmed_at),
    email: user.email,
    provider: user.provider,
    available_name: user.availableName,
    ...(Object.keys(user.custom_attributes ?? {}).length ? { custom_attributes: user.custom_attributes } : {}),
    name: user.name,
    role: accountUser.role,
    thumbnail: avatarUrlOf(user),
    custom_role_id: null,
  };
}

/**
 * The agent partial of a user invited but not yet joined: what the account gave (email, role,
 * availability), with `invitation_status: "pending"`. Their profile (name, avatar) is shown only once
 * they join: the name is the email's local part, as for a new invitee.
 */
export function presentInvitedAgent(invitation: AgentInvitation, user: User) {
  const name = user.email.split("@")[0]!;
  return {
    id: user.id,
    account_id: invitation.account_id,
    availability_status: invitation.availability ?? "online",
    auto_offline: invitation.auto_offline ?? true,
    confirmed: Boolean(user.confirmed_at),
    email: user.email,
    provider: user.provider,
    available_name: name,
    name,
    role: invitation.role,
    thumbnail: "",
    custom_role_id: null,
    invitation_status: "pending" as const,
  };
}
