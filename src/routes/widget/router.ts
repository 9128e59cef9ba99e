import { ApiRouter } from "../../http/router";
import { registerWidgetCampaignRoutes } from "./campaigns/campaigns";
import { registerWidgetConfigRoutes } from "./configs/configs";
import { registerWidgetContactRoutes } from "./contact/contact";
import { registerWidgetConversationRoutes } from "./conversations/conversations";
import { registerWidgetEventRoutes } from "./events/events";
import { registerWidgetInboxMemberRoutes } from "./inboxMembers/inboxMembers";
import { registerWidgetLabelRoutes } from "./labels/labels";
import { registerWidgetMessageRoutes } from "./messages/messages";
import { webWidgetSession } from "../../middlewares/widgetSession";

/**
 * /api/v1/widget: the public web widget API. No api_access_token: the widget is named by its
 * website_token and the visitor by the session token in X-Auth-Token.
 */
export function widgetRouter(): ApiRouter {
  const router = new ApiRouter("/api/v1/widget", { tag: "Widget", security: [], middleware: [webWidgetSession] });
  registerWidgetConfigRoutes(router);
  registerWidgetEventRoutes(router);
  registerWidgetContactRoutes(router);
  registerWidgetConversationRoutes(router);
  registerWidgetMessageRoutes(router);
  registerWidgetInboxMemberRoutes(router);
  registerWidgetLabelRoutes(router);
  registerWidgetCampaignRoutes(router);
  return router;
}
