import { z } from "zod";

/** One entry of api/v1/widget/campaigns/index.json.jbuilder. */
export const widgetCampaignResponse = z
  .object({
    id: z.number().describe("The campaign's per-account display id; campaign.triggered names it"),
    trigger_rules: z.record(z.string(), z.unknown()).describe("{url, time_on_page}: the page URL (pattern) and the seconds on it before the campaign shows"),
    trigger_only_during_business_hours: z.boolean(),
    message: z.string(),
    sender: z.object({ name: z.string(), avatar_url: z.string() }).nullable(),
  })
  .openapi("WidgetCampaign");
