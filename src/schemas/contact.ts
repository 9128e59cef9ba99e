import { z } from "zod";
import { jsonObject } from "../http/schemas";

// A contact as its own routes and a contact merge render it.

const contactInbox = z.object({
  source_id: z.string(),
  inbox: z.object({
    id: z.number(),
    avatar_url: z.string(),
    channel_id: z.number(),
    name: z.string(),
    channel_type: z.string(),
    provider: z.string().nullable(),
  }),
});

export const contactResponse = z
  .object({
    additional_attributes: jsonObject(),
    availability_status: z.enum(["online", "offline"]),
    email: z.string().nullable(),
    id: z.number(),
    name: z.string(),
    phone_number: z.string().nullable(),
    blocked: z.boolean(),
    identifier: z.string().nullable(),
    thumbnail: z.string(),
    custom_attributes: jsonObject(),
    last_activity_at: z.number().optional(),
    created_at: z.number().optional(),
    contact_inboxes: z.array(contactInbox).optional(),
  })
  .openapi("Contact");
