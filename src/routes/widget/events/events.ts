import type { ApiRouter } from "../../../http/router";
import { browserInfo, browserLanguage } from "../../../services/widgetBrowser";
import { isWebwidgetTriggered, recordWebwidgetTriggered } from "../../../services/widgetEvents";
import { requireVisitor } from "../../../middlewares/widgetSession";
import { widgetEventBody, widgetEventQuery } from "./schema";

export function registerWidgetEventRoutes(router: ApiRouter) {
  router.route(
    {
      method: "post",
      path: "/events",
      summary: "Report a widget event (webwidget.triggered) of the X-Auth-Token's visitor to the inbox's webhooks and bot",
      query: widgetEventQuery,
      body: widgetEventBody,
      status: 204,
      middleware: [requireVisitor],
    },
    async (ctx, { query, body }) => {
      if (isWebwidgetTriggered(body.name)) {
        // Chatwoot's EventsController#event_info: what the server knows wins over what the widget says.
        const eventInfo = {
          ...body.event_info,
          widget_language: body.locale ?? query.locale ?? null,
          browser_language: browserLanguage(ctx.get("accept-language") || undefined),
          browser: browserInfo(ctx.get("user-agent") || undefined),
        };
        await recordWebwidgetTriggered(ctx.deps.knex, ctx.state.webWidget!, ctx.state.visitor!, eventInfo);
      }
      ctx.status = 204;
    },
  );
}
