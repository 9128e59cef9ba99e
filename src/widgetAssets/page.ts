import { avatarUrlOf } from "../services/avatars";
import type { Visitor, WebWidgetScope } from "../services/widget";

/** JSON inside a script element: nothing in it may close the element or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** What the widget script starts from; the channel fields carry the names of Chatwoot's window.chatwootWebChannel. */
export function widgetBoot({ channel, inbox }: WebWidgetScope, visitor: Visitor, authToken: string, locale: string) {
  return {
    authToken,
    pubsubToken: visitor.contactInbox.pubsub_token,
    channel: {
      websiteName: inbox.name,
      websiteToken: channel.website_token,
      widgetColor: channel.widget_color,
      welcomeTitle: channel.welcome_title,
      welcomeTagline: channel.welcome_tagline,
      greetingEnabled: inbox.greeting_enabled,
      greetingMessage: inbox.greeting_message,
      replyTime: channel.reply_time,
      workingHoursEnabled: inbox.working_hours_enabled,
      workingHours: inbox.working_hours,
      outOfOfficeMessage: inbox.out_of_office_message,
      timezone: inbox.timezone,
      enabledFeatures: channel.selected_feature_flags,
      locale,
      avatarUrl: avatarUrlOf(inbox) || null,
    },
  };
}

/** The /widget page: a shell the bundled script fills, its starting data in a JSON block (no inline script). */
export function widgetPage(boot: ReturnType<typeof widgetBoot>, locale: string): string {
  return `<!doctype html>
<html lang="${escapeAttribute(locale.replace("_", "-"))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(boot.channel.websiteName)}</title>
<link rel="stylesheet" href="/packs/js/widget.css">
</head>
<body>
<main id="cw-app"></main>
<script type="application/json" id="cw-boot">${scriptJson(boot)}</script>
<script src="/packs/js/widget.js" defer></script>
</body>
</html>
`;
}

/**
 * The page's Content-Security-Policy: its own scripts, styles and connections only (the cable
 * included), and, when the inbox lists allowed domains, framed only by those sites.
 */
export function widgetPagePolicy(allowedDomains: string | null, host: string): string {
  const ancestors = (allowedDomains ?? "")
    .split(/[\s,]+/)
    .map((domain) => domain.trim())
    .filter((domain) => /^[a-z0-9*.:/-]+$/i.test(domain));
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src * data: blob:",
    `connect-src 'self' ws://${host} wss://${host}`,
    "base-uri 'none'",
    "form-action 'none'",
    ...(ancestors.length ? [`frame-ancestors ${ancestors.join(" ")}`] : []),
  ].join("; ");
}
