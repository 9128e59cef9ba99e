import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";
import { echoId } from "../http/schemas";

/** Where every widget route finds its widget; the body may carry it instead (see widgetParam). */
export const websiteTokenFields = { website_token: z.string().max(MAX_LENGTH.string).optional() };

export const websiteTokenQuery = z.object(websiteTokenFields);

/** The widget's message fields: its text and where and when the visitor wrote it. */
export const widgetMessageFields = {
  content: z.string().max(MAX_LENGTH.message).nullable().optional(),
  echo_id: echoId(),
  referer_url: z.string().max(MAX_LENGTH.url).nullable().optional(),
  timestamp: z.string().max(MAX_LENGTH.string).nullable().optional(),
};
