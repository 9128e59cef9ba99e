import { z } from "zod";
import { uploadedFile } from "../../../http/multipart";
import { id, jsonObject, withinJsonLimits } from "../../../http/schemas";
import { websiteTokenFields, widgetMessageFields } from "../../../schemas/widget";

export const widgetMessagesQuery = z.object({ ...websiteTokenFields, before: id().optional(), after: id().optional() });
export const widgetMessageParams = z.object({ id: id() });

export const widgetMessageCreate = z
  .object({
    ...websiteTokenFields,
    message: z
      .object({
        ...widgetMessageFields,
        /** Files, as `message[attachments][]` parts of a multipart body. */
        attachments: z.array(uploadedFile()).optional(),
      })
      .default({}),
  })
  .openapi("WidgetMessageCreate");

/** One `{name, title, value}` answer, or a list of them; `{}` is no answer (as the public API takes them). */
const submittedValues = z.preprocess(
  (value) => (value && typeof value === "object" && !Array.isArray(value) ? (Object.keys(value).length ? [value] : []) : value),
  withinJsonLimits(z.array(z.looseObject({ name: z.unknown().optional(), title: z.unknown().optional(), value: z.unknown().optional() }))),
);

export const widgetMessageUpdate = z
  .object({
    ...websiteTokenFields,
    message: z.object({ submitted_values: submittedValues.optional() }).default({}),
    /** The answer to an input_email message: the visitor's email. */
    contact: z.object({ email: z.string().trim().max(255).optional() }).optional(),
  })
  .openapi("WidgetMessageUpdate");

export const widgetMessageResponse = jsonObject().openapi("WidgetMessage");
