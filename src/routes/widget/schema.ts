import { z } from "zod";

/** Where every widget route finds its widget; the body may carry it instead (see widgetParam). */
export const websiteTokenFields = { website_token: z.string().optional() };

export const websiteTokenQuery = z.object(websiteTokenFields);
