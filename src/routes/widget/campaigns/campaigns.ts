import type { ApiRouter } from "../../../http/router";
import { widgetCampaigns } from "../../../campaigns/widget";
import { websiteTokenQuery } from "../../../schemas/widget";
import { widgetCampaignResponse } from "./schema";

export function registerWidgetCampaignRoutes(router: ApiRouter) {
  router.route(
    {
      method: "get",
      path: "/campaigns",
      summary: "The inbox's enabled ongoing campaigns, for the widget to time by page URL and time on page (no X-Auth-Token needed)",
      query: websiteTokenQuery,
      response: widgetCampaignResponse.array(),
    },
    async (ctx) => {
      ctx.body = await widgetCampaigns(ctx.deps.knex, ctx.state.webWidget!);
    },
  );
}
