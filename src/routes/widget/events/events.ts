import type { ApiRouter } from "../../../http/router";
import { triggerWidgetCampaign } from "../../../campaigns/widget";
import { browserInfo, browserLanguage } from "../../../services/widgetBrowser";
import { recordWebwidgetTriggered, widgetEventName } from "../../../services/widgetEvents";
import { requireVisitor } from "../../../middlewares/widgetSession";
import { widgetEventBody, widgetEventQuery } from "./schema";

/** A display id as Rails would take it from JSON or a form: 3 or "3"; anything else names no campaign. */
function displayIdOf(value: unknown): number | undefined {
  const id = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function registerWidgetEventRoutes(router: ApiRouter) {
  router.route(
    {
      method: "post",
      path: "/events",
      summary:
        "Report a widget event of the X-Auth-Token's visitor: webwidget.triggered (to the inbox's webhooks and bot) or campaign.triggered (event_info.campaign_id: the campaign's conversation, unless the visitor has one)",
      query: widgetEventQuery,
      body: widgetEventBody,
      status: 204,
      middleware: [requireVisitor],
    },
    async (ctx, { query, body }) => {
      const name = widgetEventName(body.name);
      if (name) {
        // Chatwoot's EventsController#event_info: what the server knows wins over what the widget says.
        const eventInfo = {
          ...body.event_info,
          widget_language: body.locale ?? query.locale ?? null,
          browser_language: browserLanguage(ctx.get("accept-language") || undefined),
          browser: browserInfo(ctx.get("user-agent") || undefined),
        };
        const { webWidget, visitor } = ctx.state;
        if (name === "webwidget_triggered") await recordWebwidgetTriggered(ctx.deps.knex, webWidget!, visitor!, eventInfo);
        else {
          const { campaign_id: campaignId, ...additionalAttributes } = eventInfo as Record<string, unknown>;
          const displayId = displayIdOf(campaignId);
          if (displayId) await triggerWidgetCampaign(ctx.deps.knex, webWidget!, visitor!, displayId, additionalAttributes);
        }
      }
      ctx.status = 204;
    },
  );
}
