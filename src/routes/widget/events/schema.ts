import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { jsonObject } from "../../../http/schemas";
import { websiteTokenFields } from "../../../schemas/widget";

const localeField = { locale: z.string().max(MAX_LENGTH.string).optional() };

/** `locale` is the widget's language, reported as event_info.widget_language. */
export const widgetEventQuery = z.object({ ...websiteTokenFields, ...localeField });

export const widgetEventBody = z
  .object({
    ...websiteTokenFields,
    ...localeField,
    /** Chatwoot's dotted event name: "webwidget.triggered" or "campaign.triggered" (event_info.campaign_id). */
    name: z.string().max(MAX_LENGTH.string).optional(),
    event_info: jsonObject().optional(),
  })
  .openapi("WidgetEventRequest");
