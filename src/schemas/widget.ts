import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";

/** Where every widget route finds its widget; the body may carry it instead (see widgetParam). */
export const websiteTokenFields = { website_token: z.string().max(MAX_LENGTH.string).optional() };

export const websiteTokenQuery = z.object(websiteTokenFields);
