import { ApiRouter } from "../../http/router";
import { registerWidgetConfigRoutes } from "./configs/configs";
import { registerWidgetEventRoutes } from "./events/events";
import { webWidgetSession } from "../../middlewares/widgetSession";

/**
 * /api/v1/widget: the public web widget API. No api_access_token: the widget is named by its
 * website_token and the visitor by the session token in X-Auth-Token.
 */
export function widgetRouter(): ApiRouter {
  const router = new ApiRouter("/api/v1/widget", { tag: "Widget", security: [], middleware: [webWidgetSession] });
  registerWidgetConfigRoutes(router);
  registerWidgetEventRoutes(router);
  return router;
}
