import type { AppContext } from "../../http/context";
import type { VisitorContext } from "../../services/widgetConversations";
import { browserInfo, browserLanguage } from "../../services/widgetBrowser";

/** What a widget message says about the page it was written on. */
export interface PageInfo {
  referer_url?: string | null;
  timestamp?: string | null;
}

/**
 * A new conversation's additional_attributes as Chatwoot's widget controllers fill them: the
 * browser from the request, the page and the visitor's clock from the message.
 */
export function visitorContext(ctx: AppContext, page: PageInfo | undefined, customAttributes?: Record<string, unknown>): VisitorContext {
  return {
    additionalAttributes: {
      browser_language: browserLanguage(ctx.get("accept-language") || undefined),
      browser: browserInfo(ctx.get("user-agent") || undefined),
      initiated_at: { timestamp: page?.timestamp ?? null },
      referer: page?.referer_url ?? null,
    },
    customAttributes,
  };
}
