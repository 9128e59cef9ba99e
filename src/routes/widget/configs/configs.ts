import type { Settings } from "../../../config";
import type { ApiRouter } from "../../../http/router";
import { createVisitor, type Visitor, type WebWidgetScope } from "../../../services/widget";
import { issueWidgetToken } from "../../../services/widgetTokens";
import { websiteTokenQuery } from "../../../schemas/widget";
import { widgetConfigBody, widgetConfigResponse } from "./schema";
import { avatarUrlOf } from "../../../services/avatars";

/** ActiveSupport's formatted_offset of the zone right now, e.g. "+05:30" or "-04:00". */
function utcOffset(timeZone: string, at = new Date()): string {
  const zoneName = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
  const match = /([+-]\d{2}):?(\d{2})?/.exec(zoneName ?? "");
  return match ? `${match[1]}:${match[2] ?? "00"}` : "+00:00";
}

function presentWidgetConfig({ channel, inbox, account }: WebWidgetScope, { contact, contactInbox }: Visitor, authToken: string, settings: Settings) {
  return {
    website_channel_config: {
      account_id: inbox.account_id,
      allow_messages_after_resolved: inbox.allow_messages_after_resolved,
      api_host: settings.frontendUrl ?? null,
      auth_token: authToken,
      avatar_url: inbox.avatar_key ? avatarUrlOf(inbox) : inbox.avatar_url,
      csat_survey_enabled: inbox.csat_survey_enabled,
      disable_branding: account.features.includes("disable_branding"),
      enabled_features: channel.selected_feature_flags,
      locale: account.locale,
      out_of_office_message: inbox.out_of_office_message,
      // No help center here, so never a portal.
      portal: null,
      pre_chat_form_enabled: channel.pre_chat_form_enabled,
      pre_chat_form_options: channel.pre_chat_form_options,
      reply_time: channel.reply_time,
      timezone: inbox.timezone,
      utc_off_set: utcOffset(inbox.timezone),
      website_name: inbox.name,
      website_token: channel.website_token,
      welcome_tagline: channel.welcome_tagline,
      welcome_title: channel.welcome_title,
      widget_color: channel.widget_color,
      working_hours: inbox.working_hours,
      working_hours_enabled: inbox.working_hours_enabled,
    },
    contact: {
      id: contact.id,
      name: contact.name,
      email: contact.email,
      phone_number: contact.phone_number,
      identifier: contact.identifier,
      pubsub_token: contactInbox.pubsub_token,
    },
    // Older Chatwoot answered the token beside the config rather than inside it; clients of either read theirs.
    auth_token: authToken,
  };
}

export function registerWidgetConfigRoutes(router: ApiRouter) {
  router.route(
    {
      method: "post",
      path: "/config",
      summary: "Start or resume a widget session: the visitor of a valid X-Auth-Token, else a new contact, with a fresh token",
      query: websiteTokenQuery,
      body: widgetConfigBody,
      response: widgetConfigResponse,
    },
    async (ctx) => {
      const webWidget = ctx.state.webWidget!;
      const visitor = ctx.state.visitor ?? (await createVisitor(ctx.deps.knex, webWidget, ctx.ip));
      const authToken = await issueWidgetToken(ctx.deps.knex, { source_id: visitor.contactInbox.source_id, inbox_id: webWidget.inbox.id });
      ctx.body = presentWidgetConfig(webWidget, visitor, authToken, ctx.deps.settings);
    },
  );
}
