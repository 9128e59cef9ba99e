import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { withinJsonLimits, wrappedUnder } from "../../../http/schemas";

/** Chatwoot's `dashboard_app{title, content}`, also bare; the frames are checked as DashboardApp validates them. */
export const dashboardAppBody = z
  .preprocess(
    wrappedUnder("dashboard_app"),
    z
      .object({
        title: z.string().max(MAX_LENGTH.string).nullable(),
        content: withinJsonLimits(z.unknown()).describe('[{type: "frame", url}], checked as DashboardApp validates it'),
      })
      .partial(),
  )
  .openapi("DashboardAppInput");

export const dashboardAppResponse = z
  .object({
    id: z.number(),
    title: z.string(),
    content: z.array(z.looseObject({ type: z.literal("frame"), url: z.string() })),
    created_at: z.string(),
  })
  .openapi("DashboardApp");
