import { z } from "zod";
import { id, jsonObject } from "../../../../http/schemas";
import { body, calendarDate, text } from "../common";

const contactFields = z
  .object({
    full_name: text(),
    name: text(),
    phone: z.string().max(50),
    phone_number: z.string().max(50),
    identifier: text(),
    iin: z.string().max(50),
    gender: text(),
    birth_date: calendarDate(),
    company_id: id(),
    custom_attributes: jsonObject(),
  })
  .partial();
export const contactBody = body("contact", contactFields, "SchedulingContactRequest");

export const contactsQuery = z.object({
  search: z.string().max(255).optional(),
  // Clamped rather than refused, as the fork does.
  limit: z.coerce
    .number()
    .int()
    .default(20)
    .transform((limit) => Math.min(100, Math.max(1, limit))),
});

export const contactResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    company_id: z.number().nullable(),
    full_name: z.string(),
    phone: z.string().nullable(),
    identifier: z.string().nullable(),
    gender: z.string().nullable(),
    birth_date: z.string().nullable(),
    custom_attributes: jsonObject(),
  })
  .openapi("SchedulingContact");
